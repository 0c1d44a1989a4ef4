// What one node probe found, read into facts. The probe's init container writes a compact summary
// of the node to its termination message (/dev/termination-log, at most 4096 bytes — about 2.5 KB
// on an 8-NIC, 8-GPU node), so one paginated list of the probe pods carries every node's result:
//   aks-rdma-probe 2
//   nic <device> <pci address> <numa node> <parent dir> <grandparent dir>      (each RDMA device)
//   port <device> <port> <link layer>|<state>|<phys state>|<rate>              (its sysfs port files)
//   gpu <pci address> <class> <numa node> <parent dir> <grandparent dir>       (each NVIDIA function)
//   verbs <device> …      (the devices the pod can open: /dev/infiniband holds their uverbs file)
//   memlock <ulimit -l>
//   peermem <lines of /proc/modules naming nvidia_peermem, or ?>
//   gpudriver <lines of /proc/driver/nvidia/version naming the Open Kernel Module, or - without a driver>
//   end
// Port states are read as ibstatus reads them (the same sysfs files); Ethernet ports are not
// InfiniBand ports. The GPU local to each IB NIC comes from topology.ts. sysfs lists every RDMA
// device of the node; /dev/infiniband only what the RDMA device plugin allocated for the pod's
// rdma/<resource> (the devices that resource's selectors matched), which the `verbs` line names.
import {
  normalizeLinkLayer,
  normalizePhysicalState,
  normalizeState,
  parseRate,
  type IbPort,
  type LinkLayer
} from '../parse/ibstat.js'
import { naturalCompare } from '../util/compare.js'
import { cudaOrder, pairNicsWithGpus, type GpuInfo, type NicInfo, type PciDeviceInfo } from './topology.js'

export const PROBE_HEADER = 'aks-rdma-probe 2'
export const TERMINATION_LOG = '/dev/termination-log'

/**
 * The probe init container's script (POSIX sh with ls, cat, readlink, dirname, basename, grep):
 * writes the summary to the termination log, then prints it to the container log too.
 */
export const PROBE_SCRIPT = [
  `T=${TERMINATION_LOG}`,
  ': > $T',
  `echo '${PROBE_HEADER}' >> $T`,
  "o=''",
  'for d in $(ls /sys/class/infiniband); do',
  '  p=/sys/class/infiniband/$d',
  '  f=$(readlink -f $p/device)',
  '  v=$(ls $f/infiniband_verbs)',
  '  if [ -n "$v" ]; then',
  '    if ls /dev/infiniband/$v > /dev/null 2>&1; then o="$o $d"; fi',
  '  fi',
  '  u=$(dirname $f)',
  '  echo "nic $d $(basename $f) $(cat $f/numa_node) $(basename $u) $(basename $(dirname $u))" >> $T',
  '  for n in $(ls $p/ports); do',
  '    q=$p/ports/$n',
  '    echo "port $d $n $(cat $q/link_layer)|$(cat $q/state)|$(cat $q/phys_state)|$(cat $q/rate)" >> $T',
  '  done',
  'done',
  'echo "verbs$o" >> $T',
  'for a in $(ls /sys/bus/pci/devices); do',
  '  f=$(readlink -f /sys/bus/pci/devices/$a)',
  '  if [ "$(cat $f/vendor)" = 0x10de ]; then',
  '    u=$(dirname $f)',
  '    echo "gpu $a $(cat $f/class) $(cat $f/numa_node) $(basename $u) $(basename $(dirname $u))" >> $T',
  '  fi',
  'done',
  'echo "memlock $(ulimit -l)" >> $T',
  'if cat /proc/modules > /dev/null 2>&1; then',
  `  echo "peermem $(cat /proc/modules | grep -c '^nvidia_peermem ')" >> $T`,
  'else',
  '  echo "peermem ?" >> $T',
  'fi',
  'if cat /proc/driver/nvidia/version > /dev/null 2>&1; then',
  `  echo "gpudriver $(cat /proc/driver/nvidia/version | grep -c 'Open Kernel Module')" >> $T`,
  'else',
  '  echo "gpudriver -" >> $T',
  'fi',
  'echo end >> $T',
  'cat $T'
].join('\n')

/** A device the probe pod can open (its uverbs file is in /dev/infiniband), with its port's link layer. */
export interface PodDevice {
  ca: string
  linkLayer: LinkLayer | null
}

export interface NodeFacts {
  node: string
  /** The InfiniBand ports the node shows (Ethernet excluded), whatever their state. */
  ibPorts: IbPort[]
  /** IB devices with an Active port, naturally sorted (mlx5_ib2 before mlx5_ib10): what the benchmark measures. */
  activeDevices: string[]
  /** Port rate of each IB device (Gb/s) as sysfs gives it. */
  rateGbps: Record<string, number | null>
  /** `ulimit -l` output, e.g. `unlimited` or `8192`. */
  memlock: string | null
  memlockUnlimited: boolean
  /** nvidia_peermem listed in /proc/modules; null when the module list could not be read. */
  peermemLoaded: boolean | null
  /**
   * The GPU driver runs the open kernel modules (/proc/driver/nvidia/version names the "Open Kernel
   * Module"), which export GPU memory as dma-buf; null when no driver version was readable.
   */
  openKernelModules: boolean | null
  /** NVIDIA GPUs (display and 3D controllers) in CUDA order. */
  gpus: GpuInfo[]
  /** The IB NICs with the GPU local to each. */
  nics: NicInfo[]
  /**
   * The devices the pod could open, i.e. what rdma/<resource> gave it; absent when the probe
   * printed no `verbs` line.
   */
  podDevices?: PodDevice[]
  /** The probe could not run or its output was unreadable (the node has no usable facts). */
  error: string | null
  /** Kept for the report's shape: the probe reads sysfs, so there is no tool failure to quote. */
  ibstatError: string | null
}

export function emptyFacts(node: string, error: string): NodeFacts {
  return {
    node,
    ibPorts: [],
    activeDevices: [],
    rateGbps: {},
    memlock: null,
    memlockUnlimited: false,
    peermemLoaded: null,
    openKernelModules: null,
    gpus: [],
    nics: [],
    error,
    ibstatError: null
  }
}

/** The CUDA index of the GPU local to an IB device, or null. */
export function localGpuOf(f: NodeFacts, device: string): number | null {
  return f.nics.find(n => n.device === device)?.localGpu ?? null
}

/** Device names as they may appear in the benchmark's scripts (anything else is refused). */
const SAFE_NAME = /^[A-Za-z0-9_.:-]{1,64}$/

function numa(text: string | undefined): number {
  const n = Number(text)
  return text !== undefined && text !== '' && Number.isInteger(n) ? n : -1
}

/** Reads a probe's termination message (see the header for the format). */
export function parseProbeOutput(node: string, text: string): NodeFacts {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  const start = lines.findIndex(l => l.trim() === PROBE_HEADER)
  if (start < 0) {
    const first = lines.find(l => l.trim())?.trim()
    return emptyFacts(node, `probe output unreadable${first ? `: ${first.slice(0, 200)}` : ' (empty)'}`)
  }
  const body = lines.slice(start + 1)
  if (!body.some(l => l.trim() === 'end'))
    return emptyFacts(node, 'probe output incomplete (no end line: cut short or over 4096 bytes)')
  const nicDirs = new Map<string, PciDeviceInfo>()
  const ports: IbPort[] = []
  const gpuDirs: PciDeviceInfo[] = []
  let memlock: string | null = null
  let peermem: boolean | null = null
  let openModules: boolean | null = null
  let verbs: string[] | undefined
  for (const line of body) {
    const f = line.split(' ')
    switch (f[0]) {
      case 'nic':
        if (SAFE_NAME.test(f[1] ?? ''))
          nicDirs.set(f[1], {
            pciAddress: f[2] ?? '',
            numaNode: numa(f[3]),
            upstream: [f[4] ?? '', f[5] ?? '']
          })
        break
      case 'port': {
        if (!SAFE_NAME.test(f[1] ?? '')) break
        const [ll, state, phys, rate] = f.slice(3).join(' ').split('|')
        ports.push({
          ca: f[1],
          port: Number(f[2]) || 1,
          state: normalizeState(state ?? ''),
          physicalState: phys ? normalizePhysicalState(phys) : null,
          rateGbps: parseRate(rate ?? ''),
          linkLayer: normalizeLinkLayer(ll ?? '')
        })
        break
      }
      case 'gpu':
        // 0x0300xx VGA and 0x0302xx 3D controllers; NVSwitches (0x0680xx) and audio functions are not GPUs.
        if (/^0x030[02]/.test(f[2] ?? ''))
          gpuDirs.push({ pciAddress: f[1] ?? '', numaNode: numa(f[3]), upstream: [f[4] ?? '', f[5] ?? ''] })
        break
      case 'verbs':
        verbs = f.slice(1).filter(d => SAFE_NAME.test(d))
        break
      case 'memlock':
        memlock = f.slice(1).join(' ').trim() || null
        break
      case 'peermem':
        peermem = f[1] === '?' || f[1] === undefined ? null : Number(f[1]) > 0
        break
      case 'gpudriver':
        openModules = f[1] === '-' || f[1] === undefined ? null : Number(f[1]) > 0
        break
    }
  }
  const ibPorts = ports.filter(p => p.linkLayer !== 'Ethernet')
  const rateGbps: Record<string, number | null> = {}
  for (const p of ibPorts) if (!(p.ca in rateGbps) || p.port === 1) rateGbps[p.ca] = p.rateGbps
  const activeDevices = [...new Set(ibPorts.filter(p => p.state === 'Active').map(p => p.ca))].sort(
    naturalCompare
  )
  const ibDevices = [...new Set(ibPorts.map(p => p.ca))]
  const gpus = cudaOrder(gpuDirs)
  const nics = pairNicsWithGpus(
    ibDevices.map(device => ({
      device,
      ...(nicDirs.get(device) ?? { pciAddress: '', numaNode: -1, upstream: ['', ''] as [string, string] })
    })),
    gpus
  )
  return {
    node,
    ibPorts,
    activeDevices,
    rateGbps,
    memlock,
    memlockUnlimited: memlock === 'unlimited',
    peermemLoaded: peermem,
    openKernelModules: openModules,
    gpus,
    nics,
    ...(verbs ? { podDevices: podDevices(verbs, ports) } : {}),
    error: null,
    ibstatError: null
  }
}

/** The devices the pod can open with their first port's link layer, sorted. */
function podDevices(devices: string[], ports: IbPort[]): PodDevice[] {
  return [...new Set(devices)]
    .sort(naturalCompare)
    .map(ca => ({ ca, linkLayer: ports.find(p => p.ca === ca)?.linkLayer ?? null }))
}
