// The node's /sys as a container reads it (sysfs is not namespaced for PCI or, in the default
// shared mode, RDMA devices): every PCI function under a Hyper-V virtual PCI root bus of its own
// (/sys/devices/…/VMBUS:01/<guid>/pci<domain>:00/<address>, as Azure VMs show them — the PCIe
// switches that pair each GPU with its NIC are not visible), with vendor, device, class and
// numa_node files; /sys/bus/pci/devices/<address> links to each; /sys/class/infiniband/<dev> has
// a `device` link and its port files (link_layer, state, phys_state, rate); each NIC's function has
// infiniband_verbs/uverbs<N>/ibdev (N as in /dev/infiniband/uverbs<N>). `ls`, `cat` and
// `readlink -f` in simulated containers read this tree; the real-shell tests build it on disk.
import type { NodeHardware, RdmaNic } from '../hardware.js'

export interface SysfsTree {
  /** Regular files: absolute path → content. */
  files: Map<string, string>
  /** Symbolic links: absolute path → absolute target. */
  links: Map<string, string>
}

const HYPERV_BUS = '/sys/devices/LNXSYSTM:00/LNXSYBUS:00/PNP0A03:00/device:07/VMBUS:01'

/** The sysfs directory of a PCI function. */
export function pciDeviceDir(address: string): string {
  const domain = address.split(':')[0].toLowerCase()
  return `${HYPERV_BUS}/${domain.padStart(8, '0')}-${domain}-0000-3130-444531454238/pci${domain}:00/${address}`
}

const NDR = 400
function width(gbps: number): string {
  if (gbps >= 800) return '4X XDR'
  if (gbps >= NDR) return '4X NDR'
  if (gbps >= 200) return '4X HDR'
  if (gbps >= 100) return '4X EDR'
  if (gbps >= 56) return '4X FDR'
  if (gbps >= 40) return '4X QDR'
  return '4X SDR'
}

/** The port files of a NIC, as /sys/class/infiniband/<dev>/ports/1/<name>. */
export function portFile(n: RdmaNic, name: string): string | undefined {
  const up = n.gbps > 0
  switch (name) {
    case 'link_layer':
      return n.linkLayer + '\n'
    case 'rate':
      return `${up ? n.gbps : 10} Gb/sec (${width(up ? n.gbps : 10)})\n`
    case 'state':
      return up ? '4: ACTIVE\n' : '1: DOWN\n'
    case 'phys_state':
      return up ? '5: LinkUp\n' : n.linkLayer === 'Ethernet' ? '3: Disabled\n' : '2: Polling\n'
    default:
      return undefined
  }
}

export function sysfsTree(hw: NodeHardware): SysfsTree {
  const files = new Map<string, string>()
  const links = new Map<string, string>()
  const numaOf = new Map<string, number>()
  for (const n of hw.nics) numaOf.set(n.pciAddress, n.numaNode)
  for (const g of hw.gpus) numaOf.set(g.pciAddress, g.numaNode)
  for (const d of hw.pci) {
    const dir = pciDeviceDir(d.address)
    files.set(`${dir}/vendor`, `0x${d.vendor}\n`)
    files.set(`${dir}/device`, `0x${d.device}\n`)
    files.set(`${dir}/class`, `0x${d.class}00\n`)
    files.set(`${dir}/numa_node`, `${numaOf.get(d.address) ?? 0}\n`)
    links.set(`/sys/bus/pci/devices/${d.address}`, dir)
  }
  hw.nics.forEach((n, i) => {
    const base = `/sys/class/infiniband/${n.name}`
    links.set(`${base}/device`, pciDeviceDir(n.pciAddress))
    files.set(`${pciDeviceDir(n.pciAddress)}/infiniband_verbs/uverbs${i}/ibdev`, `${n.name}\n`)
    for (const f of ['link_layer', 'state', 'phys_state', 'rate'])
      files.set(`${base}/ports/1/${f}`, portFile(n, f)!)
  })
  return { files, links }
}

/** The path with every symbolic link in it followed (readlink -f); undefined when a part is missing. */
export function resolvePath(tree: SysfsTree, path: string): string | undefined {
  const parts = path.split('/').filter(Boolean)
  let cur = ''
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] === '.') continue
    if (parts[i] === '..') {
      cur = cur.slice(0, cur.lastIndexOf('/'))
      continue
    }
    cur = `${cur}/${parts[i]}`
    for (let hops = 0; tree.links.has(cur) && hops < 40; hops++) cur = tree.links.get(cur)!
  }
  const known =
    tree.files.has(cur) ||
    [...tree.files.keys(), ...tree.links.keys()].some(k => k.startsWith(`${cur}/`)) ||
    cur === ''
  return known ? cur || '/' : undefined
}

/** The names in a directory of the tree (sorted), or undefined when it is not one. */
export function listDir(tree: SysfsTree, path: string): string[] | undefined {
  const dir = resolvePath(tree, path)
  if (dir === undefined || tree.files.has(dir)) return undefined
  const prefix = dir === '/' ? '/' : `${dir}/`
  const names = new Set<string>()
  for (const k of [...tree.files.keys(), ...tree.links.keys()])
    if (k.startsWith(prefix)) names.add(k.slice(prefix.length).split('/')[0])
  return [...names].sort()
}

/** A file's content through links, or undefined. */
export function readSysfs(tree: SysfsTree, path: string): string | undefined {
  const p = resolvePath(tree, path)
  return p === undefined ? undefined : tree.files.get(p)
}
