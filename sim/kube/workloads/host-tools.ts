// The host tools a verification pod runs, printing the node's simulated state in the real
// tools' formats: ibstat (-l, <dev>), ibstatus, ibv_devinfo (-l, -d), ibv_devices, rdma link,
// lsmod and /proc/modules, ulimit -l and /proc/<pid>/limits, /sys/class/infiniband reads,
// /sys/module/nvidia_peermem/version, nvidia-smi -L and --query-gpu=pci.bus_id, id, df -k
// /dev/shm, uname, hostname, grep/head/wc/cat/ls/seq for pipelines; host files through hostPath
// mounts.
import { containerMemlockKiB, type GpuDevice, type NodeHardware, type RdmaNic } from '../hardware.js'
import type { Command, CommandResult } from './shell.js'
import { listDir, portFile, readSysfs, resolvePath, sysfsTree, type SysfsTree } from './sysfs.js'

/** What a container can see of its node. */
export interface PodView {
  hw: NodeHardware
  podName: string
  /**
   * The RDMA devices whose /dev/infiniband files (uverbsN, umadN) the container has: what the RDMA
   * device plugin allocated for its rdma/* requests — the devices each requested resource's
   * selectors matched — or every device when it is privileged or mounts the host's /dev. The verbs
   * tools (ibv_devices, ibv_devinfo, perftest) see only these; sysfs (ibstat, ibstatus, rdma link,
   * /sys/class/infiniband) lists every device of the node, as in the shared RDMA netns mode.
   */
  verbsDevices: RdmaNic[]
  /** GPUs visible (nvidia.com/gpu allocated, or privileged). */
  gpus: boolean
  /**
   * Which of the node's GPUs (hardware indexes) the container was given; CUDA numbers them in
   * PCI order. Undefined: every GPU when `gpus`, else none.
   */
  gpuIndexes?: number[]
  /** Privileged containers reach the host (nsenter -t 1): systemctl, modprobe and host files change the node. */
  host?: { mutate(fn: (hw: NodeHardware) => void): void; now(): number }
  /** A host file the container reaches (a hostPath mount, or any host file when privileged). */
  readFile?(path: string): string | undefined
  /** The user the container runs as (its image's, or runAsUser); 0 when not given. */
  uid?: number
  /** The GPUs the container sees in CUDA (PCI) order, for nvidia-smi's queries; none when not given. */
  visibleGpus?: GpuDevice[]
  /** Size of the container's /dev/shm in KiB (the kubelet's sizing of a memory-backed emptyDir, or containerd's 64 MiB). */
  shmKiB?: number
}

/** nvidia_peermem's /sys/module/<name>/version: the driver's version (the module is built with it). */
const PEERMEM_MODULE_VERSION = '580.126.20'

/** `df -k` of the container's /dev/shm (a tmpfs; `shm` when it is containerd's own mount). */
function df(view: PodView, args: string[]): CommandResult {
  const path = args.filter(a => !a.startsWith('-'))[0] ?? '/'
  if (path !== '/dev/shm') return { err: `df: ${path}: No such file or directory\n`, code: 1 }
  const kib = view.shmKiB ?? 65536
  const fs = view.shmKiB === undefined || view.shmKiB === 65536 ? 'shm' : 'tmpfs'
  return {
    out: `Filesystem     1K-blocks  Used Available Use% Mounted on\n${fs.padEnd(14)} ${String(kib).padStart(9)}     0 ${String(kib).padStart(9)}   0% /dev/shm\n`,
    code: 0
  }
}

/** `nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader`: the GPUs the container was given, in PCI order. */
function nvidiaSmiQuery(view: PodView, args: string[]): CommandResult {
  const q = args.find(a => a.startsWith('--query-gpu='))?.slice('--query-gpu='.length)
  if (q !== 'pci.bus_id') return { err: `Field "${q ?? ''}" is not a valid field to query.\n`, code: 2 }
  const noheader = args.some(a => a.startsWith('--format=') && a.includes('noheader'))
  const rows = (view.visibleGpus ?? []).map(g => {
    const [domain = '', ...rest] = g.pciAddress.split(':')
    return `${domain.padStart(8, '0')}:${rest.join(':')}`.toUpperCase()
  })
  return { out: [...(noheader ? [] : ['pci.bus_id']), ...rows].map(r => r + '\n').join(''), code: 0 }
}

/**
 * The LimitMEMLOCK a unit gets from its drop-ins under /etc/systemd/system/<unit>.service.d/: the
 * `.conf` files are read in the lexicographic order of their names and a later assignment wins
 * (systemd.unit(5), "Drop-in files"; the unit files the node ships set none). Undefined: unset.
 */
export function dropInMemlock(
  files: Record<string, string>,
  unit: 'containerd' | 'kubelet'
): string | undefined {
  const dir = `/etc/systemd/system/${unit}.service.d/`
  let value: string | undefined
  const confs = Object.keys(files)
    .filter(p => p.startsWith(dir) && p.endsWith('.conf') && !p.slice(dir.length).includes('/'))
    .sort()
  for (const p of confs)
    for (const m of files[p].matchAll(/^\s*LimitMEMLOCK\s*=\s*(\S*)\s*$/gm)) value = m[1] || undefined
  return value
}

/** The drop-ins make the unit's memlock unlimited (LimitMEMLOCK=infinity, last assignment wins). */
function dropInUnlimited(files: Record<string, string>, unit: 'containerd' | 'kubelet'): boolean {
  return dropInMemlock(files, unit) === 'infinity'
}

/** The main PID of a host service: a new one after each restart. */
export function servicePid(hw: NodeHardware, unit: 'containerd' | 'kubelet'): number {
  return unit === 'kubelet' ? 2816 + hw.kubeletRestarts * 97 : 1043 + hw.containerdRestarts * 89
}

/**
 * /proc/driver/nvidia/version as the loaded driver prints it: the open modules name themselves
 * "Open Kernel Module" (NVIDIA/open-gpu-kernel-modules kernel-open/nvidia/nv.c), the proprietary
 * ones "Kernel Module".
 */
function nvidiaVersion(hw: NodeHardware): string {
  const arch = hw.spec.arch === 'arm64' ? 'aarch64' : 'x86_64'
  const kind = hw.gpuKernelModules === 'open' ? `Open Kernel Module for ${arch}` : `${arch} Kernel Module`
  return `NVRM version: NVIDIA UNIX ${kind}  580.126.20  Release Build  (dvs-builder@U22-I3-AM02-24-3)  Wed Jan  7 22:33:56 UTC 2026\nGCC version:  gcc version 13.3.0 (Ubuntu 13.3.0-6ubuntu2~24.04) \n`
}

/** /proc files of the host that depend on the node's state (its modules, its services' limits). */
export function hostProcFiles(hw: NodeHardware): Record<string, string> {
  return {
    '/proc/modules': procModules(hw),
    ...(hw.gpuDriverReady && hw.gpuKernelModules ? { '/proc/driver/nvidia/version': nvidiaVersion(hw) } : {}),
    [`/proc/${servicePid(hw, 'containerd')}/limits`]: procLimits(hw.memlockUnlimited, hw.memlockDefaultKiB),
    [`/proc/${servicePid(hw, 'kubelet')}/limits`]: procLimits(
      hw.kubeletMemlockUnlimited,
      hw.memlockDefaultKiB
    )
  }
}

/** `systemctl show [-p NAME | --property=NAME] [--value] UNIT`: MainPID and LimitMEMLOCK. */
function systemctlShow(hw: NodeHardware, args: string[]): CommandResult {
  let prop: string | undefined
  let valueOnly = false
  const units: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (a === '-p' || a === '--property') prop = args[++i]
    else if (a.startsWith('--property=')) prop = a.slice('--property='.length)
    else if (a === '--value') valueOnly = true
    else if (!a.startsWith('-')) units.push(a.replace(/\.service$/, ''))
  }
  const unit = units[0]
  if (unit !== 'containerd' && unit !== 'kubelet') return { out: valueOnly ? '0\n' : `MainPID=0\n`, code: 0 }
  const props: Record<string, string> = {
    MainPID: String(servicePid(hw, unit)),
    LimitMEMLOCK: dropInUnlimited(hw.files, unit) ? 'infinity' : String(hw.memlockDefaultKiB * 1024)
  }
  const names = prop ? prop.split(',') : Object.keys(props)
  return {
    out: names.map(n => (valueOnly ? `${props[n] ?? ''}\n` : `${n}=${props[n] ?? ''}\n`)).join(''),
    code: 0
  }
}

/** Commands that act on the host itself (only for privileged containers). */
function hostLevelCommands(view: PodView): Record<string, Command> {
  const host = view.host!
  const hw = view.hw
  return {
    systemctl: argv => {
      const verb = argv[1]
      const unit = (argv[2] ?? '').replace(/\.service$/, '')
      if (verb === 'daemon-reload') return { code: 0 }
      if (verb === 'show') return systemctlShow(hw, argv.slice(2))
      if (verb === 'is-active')
        return {
          out: unit === 'containerd' || unit === 'kubelet' ? 'active\n' : 'inactive\n',
          code: unit === 'containerd' || unit === 'kubelet' ? 0 : 3
        }
      if (verb === 'restart') {
        host.mutate(h => {
          if (unit === 'kubelet') {
            h.kubeletRestarts++
            h.kubeletMemlockUnlimited = dropInUnlimited(h.files, 'kubelet')
          }
          if (unit === 'containerd') {
            h.containerdRestarts++
            // Containers inherit containerd's limits: the drop-in takes effect on restart.
            h.memlockUnlimited = dropInUnlimited(h.files, 'containerd')
          }
        })
        return { code: 0 }
      }
      return { code: 0 }
    },
    mkdir: () => ({ code: 0 }),
    modprobe: argv => {
      const mod = argv[argv.length - 1].replace(/-/g, '_')
      if (mod === 'ib_umad' || mod === 'rdma_ucm') {
        host.mutate(h => {
          h.ibModulesLoaded = true
        })
        return { code: 0 }
      }
      if (mod === 'ib_ucm')
        return {
          err: `modprobe: FATAL: Module ib_ucm not found in directory /lib/modules/${hw.kernel}\n`,
          code: 1
        }
      if (mod === 'nvidia_peermem') {
        if (hw.nvidiaPeermemLoaded) return { code: 0 }
        if (!hw.gpuDriverReady)
          return {
            err: `modprobe: FATAL: Module nvidia_peermem not found in directory /lib/modules/${hw.kernel}\n`,
            code: 1
          }
        return { err: "modprobe: ERROR: could not insert 'nvidia_peermem': Invalid argument\n", code: 1 }
      }
      return { code: 0 }
    }
  }
}

/** Devices sorted as the tools list them (lexically: mlx5_an0, mlx5_ib0, mlx5_ib1, …). */
export function sortedNics(hw: NodeHardware): RdmaNic[] {
  return [...hw.nics].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

function caType(n: RdmaNic): string {
  return `MT${parseInt(n.deviceId, 16)}`
}

function portUp(n: RdmaNic): boolean {
  return n.gbps > 0
}

export function ibstatBlock(n: RdmaNic): string {
  const eth = n.linkLayer === 'Ethernet'
  const up = portUp(n)
  return [
    `CA '${n.name}'`,
    `\tCA type: ${caType(n)}`,
    '\tNumber of ports: 1',
    `\tFirmware version: ${n.firmware}`,
    '\tHardware version: 0',
    `\tNode GUID: ${n.nodeGuid}`,
    `\tSystem image GUID: ${n.nodeGuid}`,
    '\tPort 1:',
    `\t\tState: ${up ? 'Active' : 'Down'}`,
    `\t\tPhysical state: ${up ? 'LinkUp' : eth ? 'Disabled' : 'Polling'}`,
    `\t\tRate: ${up ? n.gbps : 10}`,
    `\t\tBase lid: ${eth || !up ? 0 : n.lid}`,
    '\t\tLMC: 0',
    `\t\tSM lid: ${eth || !up ? 0 : n.smLid}`,
    `\t\tCapability mask: ${eth ? '0x00010000' : '0x2659ec48'}`,
    `\t\tPort GUID: ${n.portGuid}`,
    `\t\tLink layer: ${n.linkLayer}`
  ].join('\n')
}

function gid(n: RdmaNic): string {
  const g = n.portGuid.slice(2).padStart(16, '0')
  return `fe80:0000:0000:0000:${g.slice(0, 4)}:${g.slice(4, 8)}:${g.slice(8, 12)}:${g.slice(12, 16)}`
}

function findNic(hw: NodeHardware, name: string): RdmaNic | undefined {
  return hw.nics.find(n => n.name === name)
}

export function ibstat(view: PodView, args: string[]): CommandResult {
  const nics = sortedNics(view.hw)
  if (args.includes('-l')) return { out: nics.map(n => n.name + '\n').join(''), code: 0 }
  const names = args.filter(a => !a.startsWith('-'))
  if (names.length) {
    const n = findNic(view.hw, names[0])
    if (!n)
      return {
        err: `ibpanic: [${1000 + view.hw.ordinal}] main: '${names[0]}' IB device can't be found: No such file or directory\n`,
        code: 255
      }
    return { out: ibstatBlock(n) + '\n', code: 0 }
  }
  return { out: nics.map(n => ibstatBlock(n) + '\n').join(''), code: 0 }
}

/** One port as ibstatus prints it: the port's sysfs files. */
function ibstatusBlock(n: RdmaNic): string {
  const file = (name: string) => portFile(n, name)!.trimEnd()
  return [
    `Infiniband device '${n.name}' port 1 status:`,
    `\tdefault gid:\t ${gid(n)}`,
    `\tbase lid:\t 0x${(n.linkLayer === 'Ethernet' ? 0 : n.lid).toString(16)}`,
    `\tsm lid:\t\t 0x${(n.linkLayer === 'Ethernet' ? 0 : n.smLid).toString(16)}`,
    `\tstate:\t\t ${file('state')}`,
    `\tphys state:\t ${file('phys_state')}`,
    `\trate:\t\t ${file('rate')}`,
    `\tlink_layer:\t ${file('link_layer')}`,
    ''
  ].join('\n')
}

/**
 * ibstatus [dev[:port]] (infiniband-diags/scripts/ibstatus): every device under
 * /sys/class/infiniband, or the named ones; `fatal` echoes "Fatal error: " and its words (two
 * spaces) on stdout and exits 255 when the directory is absent or a named device has no sysfs files.
 */
export function ibstatus(view: PodView, args: string[] = []): CommandResult {
  const nics = sortedNics(view.hw)
  const fatal = (words: string): CommandResult => ({ out: `Fatal error:  ${words}\n`, code: 255 })
  if (args.length === 0) {
    if (nics.length === 0) return fatal('No devices')
    return { out: nics.map(n => ibstatusBlock(n) + '\n').join(''), code: 0 }
  }
  let out = ''
  for (const a of args) {
    const name = a.replace(/:.*$/, '')
    const n = findNic(view.hw, name)
    if (!n)
      return {
        out: out + fatal(`device '${name}': sys files not found (/sys/class/infiniband/${name}/ports)`).out,
        code: 255
      }
    out += ibstatusBlock(n) + '\n'
  }
  return { out, code: 0 }
}

function devinfoBlock(n: RdmaNic): string {
  const g = n.nodeGuid.slice(2).padStart(16, '0')
  const colon = (s: string) => `${s.slice(0, 4)}:${s.slice(4, 8)}:${s.slice(8, 12)}:${s.slice(12, 16)}`
  const up = portUp(n)
  const eth = n.linkLayer === 'Ethernet'
  return [
    `hca_id:\t${n.name}`,
    `\ttransport:\t\t\tInfiniBand (0)`,
    `\tfw_ver:\t\t\t\t${n.firmware}`,
    `\tnode_guid:\t\t\t${colon(g)}`,
    `\tsys_image_guid:\t\t\t${colon(g)}`,
    '\tvendor_id:\t\t\t0x02c9',
    `\tvendor_part_id:\t\t\t${parseInt(n.deviceId, 16)}`,
    '\thw_ver:\t\t\t\t0x0',
    '\tboard_id:\t\t\tMT_0000000223',
    '\tphys_port_cnt:\t\t\t1',
    '\t\tport:\t1',
    `\t\t\tstate:\t\t\t${up ? 'PORT_ACTIVE (4)' : 'PORT_DOWN (1)'}`,
    `\t\t\tmax_mtu:\t\t4096 (5)`,
    `\t\t\tactive_mtu:\t\t${eth ? '1024 (3)' : '4096 (5)'}`,
    `\t\t\tsm_lid:\t\t\t${eth || !up ? 0 : n.smLid}`,
    `\t\t\tport_lid:\t\t${eth || !up ? 0 : n.lid}`,
    '\t\t\tport_lmc:\t\t0x00',
    `\t\t\tlink_layer:\t\t${n.linkLayer}`,
    ''
  ].join('\n')
}

/** The devices the verbs library finds: those with a uverbs file in the container, sorted. */
function verbsNics(view: PodView): RdmaNic[] {
  return sortedNics(view.hw).filter(n => view.verbsDevices.includes(n))
}

export function ibvDevinfo(view: PodView, args: string[]): CommandResult {
  const nics = verbsNics(view)
  if (nics.length === 0) return { out: 'No IB devices found\n', code: 255 }
  if (args.includes('-l') || args.includes('--list')) {
    return {
      out: `${nics.length} HCA${nics.length === 1 ? '' : 's'} found:\n${nics.map(n => `\t${n.name}\n`).join('')}`,
      code: 0
    }
  }
  const di = args.findIndex(a => a === '-d' || a === '--ib-dev')
  const eq = args.find(a => a.startsWith('--ib-dev='))
  const dev = di >= 0 ? args[di + 1] : eq?.split('=')[1]
  if (dev) {
    const n = nics.find(x => x.name === dev)
    if (!n) return { err: `IB device '${dev}' wasn't found\n`, code: 255 }
    return { out: devinfoBlock(n) + '\n', code: 0 }
  }
  return { out: nics.map(n => devinfoBlock(n) + '\n').join(''), code: 0 }
}

export function ibvDevices(view: PodView): CommandResult {
  const nics = verbsNics(view)
  const rows = nics.map(n => `    ${n.name.padEnd(16)}\t${n.nodeGuid.slice(2).padStart(16, '0')}\n`).join('')
  return {
    out: `    device          \t   node GUID\n    ------          \t----------------\n${rows}`,
    code: 0
  }
}

export function rdmaLink(view: PodView): CommandResult {
  const out = sortedNics(view.hw)
    .map(
      n =>
        `link ${n.name}/1 state ${portUp(n) ? 'ACTIVE' : 'DOWN'} physical_state ${portUp(n) ? 'LINK_UP' : 'POLLING'} netdev ${n.netdev}\n`
    )
    .join('')
  return { out, code: 0 }
}

interface Module {
  name: string
  size: number
  used: number
  deps: string[]
  taint?: string
}

/** Loaded kernel modules on the node. */
export function loadedModules(hw: NodeHardware): Module[] {
  const ofed = hw.ofedReady ? '(OE)' : undefined
  const mods: Module[] = []
  if (hw.nvidiaPeermemLoaded)
    mods.push({ name: 'nvidia_peermem', size: 16384, used: 0, deps: [], taint: '(POE)' })
  if (hw.gpuDriverReady) {
    mods.push({ name: 'nvidia_uvm', size: 4956160, used: 4, deps: [], taint: '(POE)' })
    mods.push({ name: 'nvidia_modeset', size: 1638400, used: 0, deps: [], taint: '(POE)' })
    mods.push({
      name: 'nvidia',
      size: 104845312,
      used: 98,
      deps: ['nvidia_uvm', 'nvidia_peermem', 'nvidia_modeset'].filter(
        d => d !== 'nvidia_peermem' || hw.nvidiaPeermemLoaded
      ),
      taint: '(POE)'
    })
  }
  if (hw.ibModulesLoaded) {
    mods.push({ name: 'ib_umad', size: 40960, used: 0, deps: [], taint: ofed })
    mods.push({ name: 'rdma_ucm', size: 32768, used: 0, deps: [], taint: ofed })
  }
  if (hw.ofedReady) {
    mods.push({ name: 'ib_ipoib', size: 155648, used: 0, deps: [], taint: ofed })
    mods.push({ name: 'rdma_cm', size: 139264, used: 1, deps: ['rdma_ucm'], taint: ofed })
    mods.push({ name: 'iw_cm', size: 53248, used: 1, deps: ['rdma_cm'], taint: ofed })
    mods.push({ name: 'ib_cm', size: 135168, used: 2, deps: ['rdma_cm', 'ib_ipoib'], taint: ofed })
  }
  mods.push({ name: 'mlx5_ib', size: 483328, used: 0, deps: [], taint: ofed })
  mods.push({
    name: 'ib_uverbs',
    size: 184320,
    used: hw.nvidiaPeermemLoaded ? 3 : 2,
    deps: [
      'mlx5_ib',
      ...(hw.nvidiaPeermemLoaded ? ['nvidia_peermem'] : []),
      ...(hw.ibModulesLoaded ? ['rdma_ucm'] : [])
    ],
    taint: ofed
  })
  mods.push({ name: 'ib_core', size: 462848, used: 8, deps: ['ib_uverbs', 'mlx5_ib'], taint: ofed })
  mods.push({ name: 'mlx5_core', size: 2121728, used: 1, deps: ['mlx5_ib'], taint: ofed })
  if (hw.ofedReady)
    mods.push({
      name: 'mlx_compat',
      size: 20480,
      used: 12,
      deps: ['ib_core', 'mlx5_core', 'mlx5_ib'],
      taint: ofed
    })
  mods.push({ name: 'mlxfw', size: 36864, used: 1, deps: ['mlx5_core'] })
  mods.push({ name: 'psample', size: 20480, used: 1, deps: ['mlx5_core'] })
  mods.push({ name: 'tls', size: 147456, used: 1, deps: ['mlx5_core'] })
  mods.push({ name: 'pci_hyperv_intf', size: 16384, used: 1, deps: ['mlx5_core'] })
  mods.push({ name: 'hv_netvsc', size: 106496, used: 0, deps: [] })
  return mods
}

export function procModules(hw: NodeHardware): string {
  return loadedModules(hw)
    .map(
      m =>
        `${m.name} ${m.size} ${m.used} ${m.deps.length ? m.deps.join(',') + ',' : '-'} Live 0x0000000000000000${m.taint ? ' ' + m.taint : ''}\n`
    )
    .join('')
}

export function lsmod(hw: NodeHardware): string {
  return (
    'Module                  Size  Used by\n' +
    loadedModules(hw)
      .map(
        m =>
          `${m.name.padEnd(19)} ${String(m.size).padStart(8)}  ${m.used}${m.deps.length ? ' ' + m.deps.join(',') : ''}\n`
      )
      .join('')
  )
}

/**
 * /proc/<pid>/limits of a process whose memlock limit is unlimited, or else the image's default
 * (a service whose unit sets no LimitMEMLOCK: see defaultMemlockKiB).
 */
export function procLimits(unlimited: boolean, defaultKiB: number): string {
  const bytes = String(defaultKiB * 1024)
  const mem = unlimited ? ['unlimited', 'unlimited'] : [bytes, bytes]
  const row = (name: string, soft: string, hard: string, units: string) =>
    `${name.padEnd(26)}${soft.padEnd(21)}${hard.padEnd(21)}${units}\n`
  return (
    row('Limit', 'Soft Limit', 'Hard Limit', 'Units') +
    row('Max cpu time', 'unlimited', 'unlimited', 'seconds') +
    row('Max file size', 'unlimited', 'unlimited', 'bytes') +
    row('Max data size', 'unlimited', 'unlimited', 'bytes') +
    row('Max stack size', '8388608', 'unlimited', 'bytes') +
    row('Max core file size', 'unlimited', 'unlimited', 'bytes') +
    row('Max resident set', 'unlimited', 'unlimited', 'bytes') +
    row('Max processes', '1545483', '1545483', 'processes') +
    row('Max open files', '1048576', '1048576', 'files') +
    row('Max locked memory', mem[0], mem[1], 'bytes') +
    row('Max address space', 'unlimited', 'unlimited', 'bytes')
  )
}

/** A basic (BRE) grep pattern as a JS regex: literal text with . * ^ $ [..] and \\| alternation. */
function breToRegex(p: string): string {
  let out = ''
  for (let i = 0; i < p.length; i++) {
    const c = p[i]
    if (c === '\\' && i + 1 < p.length) {
      out += p[i + 1] === '|' ? '|' : '\\' + p[i + 1]
      i++
    } else if ('.*^$[]'.includes(c)) out += c
    else out += c.replace(/[+?{}()|]/g, '\\$&')
  }
  return out
}

function grep(args: string[], stdin: string): CommandResult {
  let invert = false
  let ignore = false
  let quiet = false
  let count = false
  let regex = false
  let pattern: string | undefined
  for (const a of args) {
    if (a.startsWith('-') && pattern === undefined && a.length > 1) {
      for (const f of a.slice(1)) {
        if (f === 'v') invert = true
        if (f === 'i') ignore = true
        if (f === 'q') quiet = true
        if (f === 'c') count = true
        if (f === 'E') regex = true
        if (f === 'w') regex = regex || false
      }
    } else if (pattern === undefined) pattern = a
  }
  if (pattern === undefined) return { err: 'Usage: grep [OPTION]... PATTERNS [FILE]...\n', code: 2 }
  const re = new RegExp(regex ? pattern : breToRegex(pattern), ignore ? 'i' : '')
  const lines = stdin.split('\n').filter((l, i, all) => i < all.length - 1 || l !== '')
  const hits = lines.filter(l => re.test(l) !== invert)
  if (quiet) return { code: hits.length ? 0 : 1 }
  if (count) return { out: `${hits.length}\n`, code: hits.length ? 0 : 1 }
  return { out: hits.map(l => l + '\n').join(''), code: hits.length ? 0 : 1 }
}

function osRelease(hw: NodeHardware): string {
  const v = hw.osVersion
  const pretty = hw.osImage
  const code = v === '24.04' ? 'noble' : 'jammy'
  return `PRETTY_NAME="${pretty}"\nNAME="Ubuntu"\nVERSION_ID="${v}"\nVERSION="${pretty.replace(/^Ubuntu /, '').replace(' LTS', ' LTS')} (${code === 'noble' ? 'Noble Numbat' : 'Jammy Jellyfish'})"\nVERSION_CODENAME=${code}\nID=ubuntu\nID_LIKE=debian\n`
}

/** The command table of a container on `view`'s node. */
export function hostCommands(view: PodView): Record<string, Command> {
  const hw = view.hw
  let tree: SysfsTree | undefined
  const sys = (): SysfsTree => (tree ??= sysfsTree(hw))
  const cat: Command = (args, stdin) => {
    let out = ''
    let code = 0
    let err = ''
    const files = args.slice(1).filter(a => !a.startsWith('-') || a === '-')
    if (!files.length) return { out: stdin, code: 0 }
    for (const p of files) {
      if (p === '-') {
        out += stdin
        continue
      }
      if (p === '/proc/modules') out += procModules(hw)
      else if (p === '/proc/driver/nvidia/version' && hw.gpuDriverReady && hw.gpuKernelModules)
        out += nvidiaVersion(hw)
      else if (/^\/proc\/[^/]+\/limits$/.test(p)) {
        // The host's kubelet runs with its own limit; containerd's is what every container inherits.
        const pid = p.split('/')[2]
        out += procLimits(
          view.host && pid === String(servicePid(hw, 'kubelet'))
            ? hw.kubeletMemlockUnlimited
            : hw.memlockUnlimited,
          hw.memlockDefaultKiB
        )
      } else if (p === '/etc/os-release') out += osRelease(hw)
      else if (p === '/proc/sys/kernel/osrelease') out += hw.kernel + '\n'
      else if (p === '/sys/module/nvidia_peermem/version' && hw.nvidiaPeermemLoaded)
        out += PEERMEM_MODULE_VERSION + '\n'
      else if (view.readFile?.(p) !== undefined) out += view.readFile(p)
      else {
        const s = p.startsWith('/sys/') ? readSysfs(sys(), p) : undefined
        if (s !== undefined) out += s
        else {
          err += `cat: ${p}: No such file or directory\n`
          code = 1
        }
      }
    }
    return { out, err, code }
  }
  const commands: Record<string, Command> = {
    ibstat: argv => ibstat(view, argv.slice(1)),
    ibstatus: argv => ibstatus(view, argv.slice(1)),
    ibv_devinfo: argv => ibvDevinfo(view, argv.slice(1)),
    ibv_devices: () => ibvDevices(view),
    rdma: argv =>
      argv[1] === 'link'
        ? rdmaLink(view)
        : { err: 'Object "' + (argv[1] ?? '') + '" is unknown, try "rdma help".\n', code: 1 },
    lsmod: () => ({ out: lsmod(hw), code: 0 }),
    ulimit: argv =>
      argv.includes('-l')
        ? { out: `${containerMemlockKiB(hw) ?? 'unlimited'}\n`, code: 0 }
        : { out: 'unlimited\n', code: 0 },
    cat,
    grep: (argv, stdin) => grep(argv.slice(1), stdin),
    head: (argv, stdin) => {
      const n = Number((argv.find(a => /^-n?\d+$/.test(a)) ?? '-10').replace(/^-n?/, ''))
      const lines = stdin.split('\n')
      return { out: lines.slice(0, n).join('\n') + (lines.length > n ? '\n' : ''), code: 0 }
    },
    wc: (argv, stdin) => ({ out: `${stdin.split('\n').length - (stdin.endsWith('\n') ? 1 : 0)}\n`, code: 0 }),
    ls: argv => {
      const p = argv.filter(a => !a.startsWith('-'))[1] ?? '.'
      if (p.startsWith('/sys/')) {
        const names = listDir(sys(), p)
        return names
          ? { out: names.map(n => n + '\n').join(''), code: 0 }
          : { err: `ls: cannot access '${p}': No such file or directory\n`, code: 2 }
      }
      if (p.startsWith('/dev/infiniband')) {
        const devices = view.host ? hw.nics : view.verbsDevices
        if (!devices.length) return { err: `ls: cannot access '${p}': No such file or directory\n`, code: 2 }
        const index = (n: RdmaNic) => hw.nics.indexOf(n)
        const files = [
          'rdma_cm',
          ...devices.map(n => `uverbs${index(n)}`),
          ...(hw.ibModulesLoaded ? devices.map(n => `umad${index(n)}`) : [])
        ]
        if (p.replace(/\/$/, '') === '/dev/infiniband')
          return {
            out: files
              .sort()
              .map(f => f + '\n')
              .join(''),
            code: 0
          }
        const f = p.slice('/dev/infiniband/'.length)
        return files.includes(f)
          ? { out: p + '\n', code: 0 }
          : { err: `ls: cannot access '${p}': No such file or directory\n`, code: 2 }
      }
      return { out: '', code: 0 }
    },
    uname: argv => ({
      out:
        (argv.includes('-r')
          ? hw.kernel
          : argv.includes('-a')
            ? `Linux ${view.podName} ${hw.kernel} #1 SMP x86_64 GNU/Linux`
            : 'Linux') + '\n',
      code: 0
    }),
    hostname: () => ({ out: view.podName + '\n', code: 0 }),
    readlink: argv => {
      const p = argv.slice(1).find(a => !a.startsWith('-'))
      if (!p) return { err: 'readlink: missing operand\n', code: 1 }
      const r = p.startsWith('/sys/')
        ? resolvePath(sys(), p)
        : view.readFile?.(p) !== undefined
          ? p
          : undefined
      return r ? { out: r + '\n', code: 0 } : { code: 1 }
    },
    dirname: argv => {
      if (argv.length < 2) return { err: 'dirname: missing operand\n', code: 1 }
      const p = (argv[1] ?? '').replace(/\/+$/, '')
      const i = p.lastIndexOf('/')
      return { out: (i < 0 ? '.' : i === 0 ? '/' : p.slice(0, i)) + '\n', code: 0 }
    },
    basename: argv => {
      if (argv.length < 2) return { err: 'basename: missing operand\n', code: 1 }
      const p = (argv[1] ?? '').replace(/\/+$/, '')
      return { out: (p.slice(p.lastIndexOf('/') + 1) || '/') + '\n', code: 0 }
    },
    pgrep: argv => ({
      out: argv.includes('kubelet')
        ? `${servicePid(hw, 'kubelet')}\n`
        : argv.includes('containerd')
          ? `${servicePid(hw, 'containerd')}\n`
          : '',
      code: argv.includes('kubelet') || argv.includes('containerd') ? 0 : 1
    }),
    date: () => ({ out: new Date().toUTCString() + '\n', code: 0 }),
    seq: argv => {
      const n = argv.slice(1).map(Number)
      const [first, last] = n.length >= 2 ? [n[0], n[n.length - 1]] : [1, n[0] ?? 0]
      const step = n.length === 3 ? n[1] : 1
      if (!n.every(Number.isFinite) || step <= 0) return { err: 'seq: invalid argument\n', code: 1 }
      let out = ''
      for (let i = first; i <= last; i += step) out += `${i}\n`
      return { out, code: 0 }
    },
    modprobe: argv => {
      const mod = argv[argv.length - 1]
      if (loadedModules(hw).some(m => m.name === mod.replace(/-/g, '_'))) return { code: 0 }
      if (mod.replace(/-/g, '_') === 'nvidia_peermem' && !hw.gpuDriverReady)
        return {
          err: `modprobe: FATAL: Module ${mod} not found in directory /lib/modules/${hw.kernel}\n`,
          code: 1
        }
      if (mod.replace(/-/g, '_') === 'nvidia_peermem')
        return { err: `modprobe: ERROR: could not insert 'nvidia_peermem': Invalid argument\n`, code: 1 }
      return { code: 0 }
    },
    id: argv =>
      argv.includes('-u')
        ? { out: `${view.uid ?? 0}\n`, code: 0 }
        : {
            out: view.uid
              ? `uid=${view.uid} gid=0(root) groups=0(root)\n`
              : 'uid=0(root) gid=0(root) groups=0(root)\n',
            code: 0
          },
    df: argv => df(view, argv.slice(1)),
    'nvidia-smi': argv => {
      if (!view.gpus || !hw.gpuDriverReady || hw.spec.gpus === 0) {
        return {
          out: "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n\n",
          code: 9
        }
      }
      if (argv.some(a => a.startsWith('--query-gpu='))) return nvidiaSmiQuery(view, argv.slice(1))
      if (argv.includes('-L')) {
        return {
          out: Array.from(
            { length: hw.spec.gpus },
            (_, i) =>
              `GPU ${i}: ${hw.spec.gpuName} (UUID: GPU-${(i + 1).toString(16).padStart(8, '0')}-0000-4000-8000-${hw.nodeName.length.toString(16).padStart(12, '0')})\n`
          ).join(''),
          code: 0
        }
      }
      return {
        out: `NVIDIA-SMI 580.126.20             Driver Version: 580.126.20     CUDA Version: 13.0\n${hw.spec.gpus} x ${hw.spec.gpuName}\n`,
        code: 0
      }
    }
  }
  return view.host ? { ...commands, ...hostLevelCommands(view) } : commands
}
