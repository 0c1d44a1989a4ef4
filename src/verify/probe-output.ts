// What one node probe printed, read into facts: the pod runs `ibstat; echo ---; ulimit -l; echo ---;
// cat /proc/modules; echo ---; ibv_devinfo`, so its log has four sections. ibstat (sysfs: every
// RDMA device of the node) goes through parseIbstat (Ethernet VFs excluded), `ulimit -l` must say
// `unlimited`, /proc/modules must list nvidia_peermem, and ibv_devinfo lists the devices the pod
// can open — those whose /dev/infiniband files the device plugin gave it for rdma/<resource>.
import { infinibandPorts, parseIbstat, type IbPort, type LinkLayer } from '../parse/ibstat.js'
import { naturalCompare } from '../util/compare.js'

export const SECTION_MARK = '---'

/** The shell script of the probe container (busybox/bash `sh -c`). */
export const PROBE_SCRIPT = `ibstat; echo ${SECTION_MARK}; ulimit -l; echo ${SECTION_MARK}; cat /proc/modules; echo ${SECTION_MARK}; ibv_devinfo`

/** A device the probe pod can open (ibv_devinfo), with its port's link layer. */
export interface PodDevice {
  ca: string
  linkLayer: LinkLayer | null
}

export interface NodeFacts {
  node: string
  /** The InfiniBand ports ibstat printed (Ethernet excluded), whatever their state. */
  ibPorts: IbPort[]
  /** IB devices with an Active port, naturally sorted (mlx5_ib2 before mlx5_ib10): what the benchmark measures. */
  activeDevices: string[]
  /** Port rate of each IB device (Gb/s) as ibstat printed it. */
  rateGbps: Record<string, number | null>
  /** `ulimit -l` output, e.g. `unlimited` or `8192`. */
  memlock: string | null
  memlockUnlimited: boolean
  /** nvidia_peermem listed in /proc/modules; null when the module list could not be read. */
  peermemLoaded: boolean | null
  /**
   * The devices the pod could open, i.e. what rdma/<resource> gave it (ibv_devinfo: only devices
   * whose /dev/infiniband files are in the container); absent when the probe printed no such section.
   */
  podDevices?: PodDevice[]
  /** The probe could not run or its output was unreadable (the node has no usable facts). */
  error: string | null
  /** ibstat's own failure (no devices, ibpanic), kept next to the ports it did print. */
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
    error,
    ibstatError: null
  }
}

export function parseProbeOutput(node: string, text: string): NodeFacts {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  const marks = lines.map((l, i) => (l.trim() === SECTION_MARK ? i : -1)).filter(i => i >= 0)
  if (marks.length < 2) {
    const first = lines.find(l => l.trim())?.trim()
    return emptyFacts(
      node,
      `probe output incomplete (${marks.length + 1} of 3 sections)${first ? `: ${first}` : ''}`
    )
  }
  const ibstatText = lines.slice(0, marks[0]).join('\n')
  const ulimitText = lines
    .slice(marks[0] + 1, marks[1])
    .join('\n')
    .trim()
  const modulesText = lines.slice(marks[1] + 1, marks[2]).join('\n')
  const verbsText = marks.length > 2 ? lines.slice(marks[2] + 1).join('\n') : undefined

  const ib = parseIbstat(ibstatText)
  const ibPorts = infinibandPorts(ib)
  const rateGbps: Record<string, number | null> = {}
  for (const p of ibPorts) if (!(p.ca in rateGbps) || p.port === 1) rateGbps[p.ca] = p.rateGbps
  const activeDevices = [...new Set(ibPorts.filter(p => p.state === 'Active').map(p => p.ca))].sort(
    naturalCompare
  )
  const memlock =
    ulimitText
      .split('\n')
      .map(l => l.trim())
      .find(l => l !== '') ?? null
  const modules = modulesText
    .split('\n')
    .map(l => l.trim().split(/\s+/)[0])
    .filter(Boolean)
  return {
    node,
    ibPorts,
    activeDevices,
    rateGbps,
    memlock,
    memlockUnlimited: memlock === 'unlimited',
    peermemLoaded: modules.length ? modules.includes('nvidia_peermem') : null,
    ...(verbsText === undefined ? {} : { podDevices: podDevices(verbsText) }),
    error: null,
    ibstatError: ib.error?.message ?? null
  }
}

/** The devices ibv_devinfo listed (one per device, its first port's link layer); none for `No IB devices found`. */
function podDevices(text: string): PodDevice[] {
  const seen = new Map<string, PodDevice>()
  for (const p of parseIbstat(text).ports)
    if (!seen.has(p.ca)) seen.set(p.ca, { ca: p.ca, linkLayer: p.linkLayer })
  return [...seen.values()].sort((a, b) => naturalCompare(a.ca, b.ca))
}
