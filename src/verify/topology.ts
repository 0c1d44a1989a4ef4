// Which GPU is local to each RDMA NIC of a node (PCIe switch, else NUMA order, else overall order),
// from the probe's sysfs facts; CUDA indexes are in PCI order. Rules: docs/benchmark.md.

export type Locality = 'pcie-switch' | 'numa' | 'order'

export interface PciDeviceInfo {
  /** `0101:00:00.0`. */
  pciAddress: string
  /** -1 when the kernel reports none. */
  numaNode: number
  /** Names of the sysfs directories above the device (parent, grandparent). */
  upstream: [string, string]
}

export interface GpuInfo extends PciDeviceInfo {
  /** The CUDA device index in PCI bus order. */
  cudaIndex: number
}

export interface NicInfo extends PciDeviceInfo {
  device: string
  /** The CUDA index of the GPU local to this NIC; null when the node has no GPU for it. */
  localGpu: number | null
  locality: Locality | null
}

const PCI_ADDRESS = /^[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$/i

/** A PCI bridge both devices sit below (a shared parent or grandparent that is a PCI address). */
function sharedBridge(a: PciDeviceInfo, b: PciDeviceInfo): boolean {
  return a.upstream.some(u => PCI_ADDRESS.test(u) && b.upstream.includes(u))
}

/** PCI bus order: the fixed-width hex addresses compared as text (0009 < 000a < 0101). */
function pciKey(address: string): string {
  const [domain = '', ...rest] = address.toLowerCase().split(':')
  return `${domain.padStart(8, '0')}:${rest.join(':')}`
}

const byAddress = <T extends PciDeviceInfo>(list: T[]): T[] =>
  [...list].sort((x, y) =>
    pciKey(x.pciAddress) < pciKey(y.pciAddress) ? -1 : pciKey(x.pciAddress) > pciKey(y.pciAddress) ? 1 : 0
  )

/** GPUs in CUDA (PCI bus) order with their indexes. */
export function cudaOrder(gpus: PciDeviceInfo[]): GpuInfo[] {
  return byAddress(gpus).map((g, cudaIndex) => ({ ...g, cudaIndex }))
}

/** Each NIC with the GPU local to it (see the header for the rules). */
export function pairNicsWithGpus(
  nics: Array<PciDeviceInfo & { device: string }>,
  gpus: GpuInfo[]
): NicInfo[] {
  const sortedNics = byAddress(nics)
  const out = new Map<string, NicInfo>()
  const taken = new Set<number>()
  // 1. A shared bridge.
  for (const n of sortedNics) {
    const g = gpus.find(x => !taken.has(x.cudaIndex) && sharedBridge(n, x))
    if (g) {
      taken.add(g.cudaIndex)
      out.set(n.device, { ...n, localGpu: g.cudaIndex, locality: 'pcie-switch' })
    }
  }
  // 2. Rank within the NUMA node, where the node has as many free GPUs as unpaired NICs.
  const rest = sortedNics.filter(n => !out.has(n.device))
  const numas = [...new Set(rest.map(n => n.numaNode))]
  if (numas.every(k => k >= 0)) {
    for (const k of numas) {
      const ns = rest.filter(n => n.numaNode === k)
      const gs = gpus.filter(g => g.numaNode === k && !taken.has(g.cudaIndex))
      if (gs.length !== ns.length) continue
      ns.forEach((n, i) => {
        taken.add(gs[i].cudaIndex)
        out.set(n.device, { ...n, localGpu: gs[i].cudaIndex, locality: 'numa' })
      })
    }
  }
  // 3. Overall order of what is left.
  const freeGpus = gpus.filter(g => !taken.has(g.cudaIndex))
  sortedNics
    .filter(n => !out.has(n.device))
    .forEach((n, i) => {
      const g = freeGpus[i]
      out.set(n.device, { ...n, localGpu: g?.cudaIndex ?? null, locality: g ? 'order' : null })
    })
  return nics.map(n => out.get(n.device)!)
}
