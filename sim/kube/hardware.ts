// Simulated node hardware: what each Azure VM size carries (GPUs, InfiniBand VFs and their link
// rate, the accelerated-networking Ethernet VF), its PCIe topology (each IB NIC shares a PCIe
// switch with one GPU — GPUDirect across switches is slower — and the pairs are split over the
// NUMA nodes; the PCI addresses are Azure's, e.g. ND H100 v5's GPUs 0001/0002/0003/0008 and
// 0009/000a/000b/000c with NICs 0101–0108 as in Azure's ndv5 topology file), the scenario's
// per-node overrides (link rate, degraded or missing NICs, failing OFED builds), and the mutable
// per-node state the cluster stack changes (OFED loaded, memlock, modules, peermem, restarts,
// device plugins) with a timeline of when each step happened in simulated milliseconds.
import type { Scenario } from '../scenario.js'

export interface VmSizeSpec {
  gpus: number
  gpuName?: string
  /** PCI vendor of the GPUs: 10de (NVIDIA, the default) or 1002 (AMD). */
  gpuVendor?: '10de' | '1002'
  /** PCI device id of the GPU. */
  gpuDeviceId?: string
  ibNics: number
  ibGbps: number
  /**
   * PCI device id of the InfiniBand VF (vendor 15b3): 1018 (ConnectX-5), 101c (ConnectX-6) or 101e
   * (ConnectX-7 and later, the mlx5Gen VF).
   */
  ibDeviceId?: string
  vcpus: number
  memoryGiB: number
  arch: 'amd64' | 'arm64'
  /** NUMA nodes the GPU/NIC pairs are split over (default 2). */
  numaNodes?: number
  /** PCI domains of the GPUs in address order (default 0001, 0002, …). */
  gpuDomains?: number[]
}

/** Azure's ND H100/H200 v5 GPU PCI domains (the ndv5 topology file), in PCI order. */
const NDV5_GPU_DOMAINS = [0x1, 0x2, 0x3, 0x8, 0x9, 0xa, 0xb, 0xc]

const A100_40 = { gpuName: 'NVIDIA A100-SXM4-40GB', gpuDeviceId: '20b0' }
const A100_80 = { gpuName: 'NVIDIA A100-SXM4-80GB', gpuDeviceId: '20b2' }
const H100 = { gpuName: 'NVIDIA H100 80GB HBM3', gpuDeviceId: '2330' }
const H200 = { gpuName: 'NVIDIA H200', gpuDeviceId: '2335' }

/**
 * RDMA-capable sizes (Azure's GPU and HPC size pages); the `r` in the name marks RDMA. Agrees with the action's table
 * (src/settings/vm-sizes.ts: GPUs, their vendor, the IB VF device; a test checks it).
 */
export const VM_SIZES: Record<string, VmSizeSpec> = {
  Standard_ND96asr_v4: {
    gpus: 8,
    ...A100_40,
    ibNics: 8,
    ibGbps: 200,
    ibDeviceId: '101c',
    vcpus: 96,
    memoryGiB: 900,
    arch: 'amd64',
    numaNodes: 4
  },
  Standard_ND96amsr_A100_v4: {
    gpus: 8,
    ...A100_80,
    ibNics: 8,
    ibGbps: 200,
    ibDeviceId: '101c',
    vcpus: 96,
    memoryGiB: 1900,
    arch: 'amd64',
    numaNodes: 4
  },
  Standard_ND96isr_H100_v5: {
    gpus: 8,
    ...H100,
    ibNics: 8,
    ibGbps: 400,
    ibDeviceId: '101e',
    vcpus: 96,
    memoryGiB: 1900,
    arch: 'amd64',
    gpuDomains: NDV5_GPU_DOMAINS
  },
  Standard_ND96isr_H200_v5: {
    gpus: 8,
    ...H200,
    ibNics: 8,
    ibGbps: 400,
    ibDeviceId: '101e',
    vcpus: 96,
    memoryGiB: 1850,
    arch: 'amd64',
    gpuDomains: NDV5_GPU_DOMAINS
  },
  Standard_ND96isrf_H200_v5: {
    gpus: 8,
    ...H200,
    ibNics: 8,
    ibGbps: 400,
    ibDeviceId: '101e',
    vcpus: 96,
    memoryGiB: 1850,
    arch: 'amd64',
    gpuDomains: NDV5_GPU_DOMAINS
  },
  Standard_ND128isr_NDR_GB200_v6: {
    gpus: 4,
    gpuName: 'NVIDIA GB200',
    gpuDeviceId: '2941',
    ibNics: 4,
    ibGbps: 400,
    ibDeviceId: '101e',
    vcpus: 128,
    memoryGiB: 900,
    arch: 'arm64'
  },
  Standard_ND128isr_GB300_v6: {
    gpus: 4,
    gpuName: 'NVIDIA GB300',
    gpuDeviceId: '31c2',
    ibNics: 4,
    // 800 Gb/s InfiniBand per GPU (Learn nd-gb300-v6-series-summary.md).
    ibGbps: 800,
    ibDeviceId: '101e',
    vcpus: 128,
    memoryGiB: 900,
    arch: 'arm64'
  },
  Standard_ND96isr_MI300X_v5: {
    gpus: 8,
    gpuName: 'AMD Instinct MI300X',
    gpuVendor: '1002',
    gpuDeviceId: '74a1',
    ibNics: 8,
    ibGbps: 400,
    ibDeviceId: '101e',
    vcpus: 96,
    memoryGiB: 1850,
    arch: 'amd64'
  },
  Standard_ND96asr_MI200_v4: {
    gpus: 8,
    gpuName: 'AMD Instinct MI250X',
    gpuVendor: '1002',
    gpuDeviceId: '740c',
    ibNics: 8,
    ibGbps: 200,
    ibDeviceId: '101c',
    vcpus: 96,
    memoryGiB: 900,
    arch: 'amd64'
  },
  Standard_ND40rs_v2: {
    gpus: 8,
    gpuName: 'Tesla V100-SXM2-32GB',
    gpuDeviceId: '1db5',
    ibNics: 1,
    ibGbps: 100,
    ibDeviceId: '1018',
    vcpus: 40,
    memoryGiB: 672,
    arch: 'amd64'
  },
  Standard_HB120rs_v3: {
    gpus: 0,
    ibNics: 1,
    ibGbps: 200,
    ibDeviceId: '101c',
    vcpus: 120,
    memoryGiB: 456,
    arch: 'amd64'
  },
  Standard_HB176rs_v4: {
    gpus: 0,
    ibNics: 1,
    ibGbps: 400,
    ibDeviceId: '101e',
    vcpus: 176,
    memoryGiB: 768,
    arch: 'amd64'
  },
  Standard_HX176rs: {
    gpus: 0,
    ibNics: 1,
    ibGbps: 400,
    ibDeviceId: '101e',
    vcpus: 176,
    memoryGiB: 1408,
    arch: 'amd64'
  },
  Standard_HC44rs: {
    gpus: 0,
    ibNics: 1,
    ibGbps: 100,
    ibDeviceId: '1018',
    vcpus: 44,
    memoryGiB: 352,
    arch: 'amd64'
  },
  // Not RDMA: no `r` in the name.
  Standard_ND96is_H100_v5: {
    gpus: 8,
    ...H100,
    ibNics: 0,
    ibGbps: 0,
    vcpus: 96,
    memoryGiB: 1900,
    arch: 'amd64'
  },
  Standard_NC24ads_A100_v4: {
    gpus: 1,
    ...A100_80,
    ibNics: 0,
    ibGbps: 0,
    vcpus: 24,
    memoryGiB: 220,
    arch: 'amd64'
  }
}

/** A size not in the table: a general-purpose VM whose vCPU count is read from the name (D4s_v5 → 4). */
export function vmSizeSpec(vmSize: string): VmSizeSpec {
  const known =
    VM_SIZES[vmSize] ?? Object.entries(VM_SIZES).find(([k]) => k.toLowerCase() === vmSize.toLowerCase())?.[1]
  if (known) return known
  const m = /^Standard_[A-Z]+(\d+)/i.exec(vmSize)
  const vcpus = m ? Math.max(1, Number(m[1])) : 4
  return { gpus: 0, ibNics: 0, ibGbps: 0, vcpus, memoryGiB: vcpus * 4, arch: 'amd64' }
}

export function isRdmaSize(vmSize: string): boolean {
  return vmSizeSpec(vmSize).ibNics > 0
}

/** One RDMA-capable (mlx5) function as the host sees it. */
export interface RdmaNic {
  /** ibstat / verbs name: mlx5_ib0.. for InfiniBand, mlx5_an0 for the Ethernet VF. */
  name: string
  /** Kernel netdev: ib0.. / eth1. */
  netdev: string
  pciAddress: string
  vendor: string
  deviceId: string
  pciClass: string
  driver: 'mlx5_core'
  linkLayer: 'InfiniBand' | 'Ethernet'
  /** Port rate in Gb/s; 0 = port down. */
  gbps: number
  nodeGuid: string
  portGuid: string
  lid: number
  smLid: number
  firmware: string
  numaNode: number
  /** The PCIe switch the NIC sits behind (shared with one GPU); null for the Ethernet VF. */
  pcieSwitch: number | null
}

/** One GPU as the host sees it. */
export interface GpuDevice {
  /** Position in PCI address order (what nvidia-smi and CUDA_DEVICE_ORDER=PCI_BUS_ID number). */
  index: number
  pciAddress: string
  numaNode: number
  pcieSwitch: number
}

export interface PciDevice {
  address: string
  vendor: string
  device: string
  class: string
  subsystem_vendor: string
  subsystem_device: string
}

export interface NodeTimeline {
  joinedAt?: number
  ofedReadyAt?: number
  ibNodeConfigInitAt?: number
  devicePluginStartedAt?: number
  rdmaAdvertisedAt?: number
  gpuDriverReadyAt?: number
  peermemReadyAt?: number
  gpuAdvertisedAt?: number
}

/** Mutable per-node state. */
export interface NodeHardware {
  nodeName: string
  pool: string
  vmSize: string
  spec: VmSizeSpec
  /** Position among RDMA nodes of User pools (scenario `index`), or -1. */
  rdmaIndex: number
  /** Host ordinal used for IPs. */
  ordinal: number
  nodeIp: string
  osId: 'ubuntu'
  osVersion: string
  osImage: string
  kernel: string
  nics: RdmaNic[]
  gpus: GpuDevice[]
  pci: PciDevice[]
  ofedFails: boolean
  ofedReady: boolean
  /**
   * RLIMIT_MEMLOCK (KiB) containers get while containerd runs without ib-node-config's
   * LimitMEMLOCK=infinity: the image's default (see defaultMemlockKiB).
   */
  memlockDefaultKiB: number
  /** Containers' memlock limit is unlimited (they inherit containerd's, set when containerd restarts). */
  memlockUnlimited: boolean
  /**
   * The scenario's `nodes.containerMemlockKiB`: containerd's CRI base runtime spec sets
   * RLIMIT_MEMLOCK to this for every container (containerd itself keeps its own limit); null when
   * it sets none and containers inherit containerd's.
   */
  memlockOverrideKiB: number | null
  /** nvidia_peermem cannot be inserted here (scenario `nodes.peermemFails`). */
  peermemFails: boolean
  /** The GPUs' NVLink runs degraded (scenario `nodes.nvlinkDegraded`): NCCL's intra-node rate drops. */
  nvlinkDegraded: boolean
  /**
   * The GPUs can export their memory as dma-buf under the open kernel modules (not V100, which they
   * do not support; scenario `nodes.dmabuf: false` takes it away): whether they do depends on the
   * modules the GPU driver loaded (gpuKernelModules, dmabufAvailable).
   */
  gpuDmabuf: boolean
  /** Which NVIDIA kernel modules the GPU driver pod loaded (its KERNEL_MODULE_TYPE); null before. */
  gpuKernelModules: 'open' | 'proprietary' | null
  /** The running kubelet's memlock limit is unlimited (set from its drop-in when it restarts). */
  kubeletMemlockUnlimited: boolean
  ibModulesLoaded: boolean
  gpuDriverReady: boolean
  nvidiaPeermemLoaded: boolean
  kubeletRestarts: number
  containerdRestarts: number
  ibNodeConfigRuns: number
  /** Host files written by privileged containers (path → content). */
  files: Record<string, string>
  /**
   * Mounts containers made on the host (Bidirectional propagation), with the simulated time each
   * was made: a container whose hostPath volume reaches one made after it started sees it only
   * with HostToContainer or Bidirectional propagation (see workloads/index.ts, hostMountOf).
   */
  mounts: Array<{ path: string; at: number }>
  /** Device plugin resources (full name → advertised quantity string). */
  extendedResources: Record<string, string>
  /** Device-plugin resource → names of the host devices its selectors matched. */
  rdmaMatchedDevices: Record<string, string[]>
  timeline: NodeTimeline
}

/** FNV-32a of a string (unsigned). */
export function fnv32a(s: string): number {
  let h = 0x811c9dc5
  const bytes = Buffer.from(s, 'utf8')
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i]
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** Kubernetes `rand.SafeEncodeString`: every character mapped onto a vowel-free alphabet. */
export function safeEncode(s: string): string {
  const alphanums = 'bcdfghjklmnpqrstvwxz2456789'
  let out = ''
  for (const ch of s) out += alphanums[ch.codePointAt(0)! % alphanums.length]
  return out
}

/** Deterministic 0..1 value from a string (for jitter that is stable across runs). */
export function unitHash(s: string): number {
  return fnv32a(s) / 0xffffffff
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0')
}

function guid(seed: string): string {
  const a = fnv32a(seed + ':a')
  const b = fnv32a(seed + ':b')
  return `0x${hex(a, 8)}${hex(b, 8)}`
}

export interface NodeOs {
  osVersion: string
  osImage: string
  kernel: string
}

/** AKS: osSku `Ubuntu` is 22.04 before Kubernetes 1.35 and 24.04 from 1.35; the versioned SKUs pin. */
export function nodeOs(osSku: string, kubernetesVersion: string): NodeOs {
  const sku = osSku.toLowerCase()
  const [maj, min] = kubernetesVersion.replace(/^v/, '').split('.').map(Number)
  let v2404 = sku === 'ubuntu2404'
  if (sku === 'ubuntu' || sku === '') v2404 = maj > 1 || (maj === 1 && min >= 35)
  return v2404
    ? { osVersion: '24.04', osImage: 'Ubuntu 24.04.2 LTS', kernel: '6.8.0-1021-azure' }
    : { osVersion: '22.04', osImage: 'Ubuntu 22.04.5 LTS', kernel: '5.15.0-1079-azure' }
}

/**
 * The memlock limit (KiB) a service — containerd, so every container — gets when its unit sets no
 * LimitMEMLOCK: the kernel's default, 64 KiB before Linux 5.16 (Ubuntu 22.04's 5.15, whose
 * systemd 249 keeps it) and 8 MiB from 5.16 (Ubuntu 24.04's 6.8, systemd 255).
 */
export function defaultMemlockKiB(kernel: string): number {
  const [maj, min] = kernel.split(/[.-]/).map(Number)
  return maj > 5 || (maj === 5 && min >= 16) ? 8192 : 64
}

/** The scenario's hardware overrides for one RDMA node index. */
function overridesFor(scenario: Scenario, rdmaIndex: number) {
  const n = scenario.nodes
  return {
    noInfiniband: rdmaIndex >= 0 && (n.noInfiniband ?? []).includes(rdmaIndex),
    ofedFails: rdmaIndex >= 0 && (n.ofedFails ?? []).includes(rdmaIndex),
    degraded: rdmaIndex >= 0 ? (n.degraded ?? []).filter(d => d.index === rdmaIndex) : [],
    ibLinkGbps: n.ibLinkGbps
  }
}

/** Builds the hardware of a fresh node. */
export function buildNodeHardware(o: {
  scenario: Scenario
  nodeName: string
  pool: string
  vmSize: string
  osSku: string
  kubernetesVersion: string
  rdmaIndex: number
  ordinal: number
}): NodeHardware {
  const spec = vmSizeSpec(o.vmSize)
  const os = nodeOs(o.osSku, o.kubernetesVersion)
  const ov = overridesFor(o.scenario, o.rdmaIndex)
  const nics: RdmaNic[] = []
  const pci: PciDevice[] = []
  const ibCount = ov.noInfiniband ? 0 : spec.ibNics
  const ibDev = spec.ibDeviceId ?? '101c'
  const fw = ibDev === '101e' ? '28.39.1002' : '20.31.1014'
  const numaNodes = spec.numaNodes ?? 2
  const numaOf = (k: number, of: number) =>
    Math.min(numaNodes - 1, Math.floor((k * numaNodes) / Math.max(1, of)))
  for (let i = 0; i < ibCount; i++) {
    let gbps = ov.ibLinkGbps ?? spec.ibGbps
    for (const d of ov.degraded) if (d.nic === undefined || d.nic === i) gbps = d.gbps
    const addr = `${hex(0x101 + i, 4)}:00:00.0`
    const seed = `${o.nodeName}/ib${i}`
    nics.push({
      name: `mlx5_ib${i}`,
      netdev: `ib${i}`,
      pciAddress: addr,
      vendor: '15b3',
      deviceId: ibDev,
      pciClass: '0207',
      driver: 'mlx5_core',
      linkLayer: 'InfiniBand',
      gbps,
      nodeGuid: guid(seed),
      portGuid: guid(seed + ':port'),
      lid: 100 + ((o.ordinal * 8 + i) % 60000),
      smLid: 549,
      firmware: fw,
      numaNode: numaOf(i, spec.ibNics),
      pcieSwitch: i
    })
    pci.push({
      address: addr,
      vendor: '15b3',
      device: ibDev,
      class: '0207',
      subsystem_vendor: '15b3',
      subsystem_device: '0023'
    })
  }
  // Accelerated networking: one Mellanox Ethernet VF on every node.
  const ethSeed = `${o.nodeName}/an0`
  const ethAddr = `${hex(0x9d4e, 4)}:00:02.0`
  nics.push({
    name: 'mlx5_an0',
    netdev: 'eth1',
    pciAddress: ethAddr,
    vendor: '15b3',
    deviceId: '101a',
    pciClass: '0200',
    driver: 'mlx5_core',
    linkLayer: 'Ethernet',
    gbps: 40,
    nodeGuid: guid(ethSeed),
    portGuid: guid(ethSeed + ':port'),
    lid: 0,
    smLid: 0,
    firmware: '16.30.1284',
    numaNode: 0,
    pcieSwitch: null
  })
  pci.push({
    address: ethAddr,
    vendor: '15b3',
    device: '101a',
    class: '0200',
    subsystem_vendor: '15b3',
    subsystem_device: '0190'
  })
  const gpus: GpuDevice[] = []
  for (let g = 0; g < spec.gpus; g++) {
    const address = `${hex(spec.gpuDomains?.[g] ?? 0x1 + g, 4)}:00:00.0`
    gpus.push({ index: g, pciAddress: address, numaNode: numaOf(g, spec.gpus), pcieSwitch: g })
    pci.push({
      address,
      vendor: spec.gpuVendor ?? '10de',
      device: spec.gpuDeviceId ?? '20b0',
      class: '0302',
      subsystem_vendor: spec.gpuVendor ?? '10de',
      subsystem_device: '1463'
    })
  }
  pci.push({
    address: '0000:00:08.0',
    vendor: '1414',
    device: '5353',
    class: '0300',
    subsystem_vendor: '1414',
    subsystem_device: '5353'
  })
  return {
    nodeName: o.nodeName,
    pool: o.pool,
    vmSize: o.vmSize,
    spec,
    rdmaIndex: o.rdmaIndex,
    ordinal: o.ordinal,
    nodeIp: `10.224.${Math.floor(o.ordinal / 250)}.${(o.ordinal % 250) + 4}`,
    osId: 'ubuntu',
    osVersion: os.osVersion,
    osImage: os.osImage,
    kernel: os.kernel,
    nics,
    gpus,
    pci,
    ofedFails: ov.ofedFails,
    ofedReady: false,
    memlockDefaultKiB: defaultMemlockKiB(os.kernel),
    memlockUnlimited: false,
    memlockOverrideKiB: o.scenario.nodes.containerMemlockKiB ?? null,
    peermemFails: o.rdmaIndex >= 0 && (o.scenario.nodes.peermemFails ?? []).includes(o.rdmaIndex),
    nvlinkDegraded: o.rdmaIndex >= 0 && (o.scenario.nodes.nvlinkDegraded ?? []).includes(o.rdmaIndex),
    gpuDmabuf:
      spec.gpus > 0 &&
      (spec.gpuVendor ?? '10de') === '10de' &&
      !/V100/.test(spec.gpuName ?? '') &&
      o.scenario.nodes.dmabuf !== false,
    kubeletMemlockUnlimited: false,
    ibModulesLoaded: false,
    gpuDriverReady: false,
    nvidiaPeermemLoaded: false,
    gpuKernelModules: null,
    kubeletRestarts: 0,
    containerdRestarts: 0,
    ibNodeConfigRuns: 0,
    files: {},
    mounts: [],
    extendedResources: {},
    rdmaMatchedDevices: {},
    timeline: {}
  }
}

/**
 * The memlock limit (KiB) of a container's processes, or null for unlimited: the CRI base spec's
 * rlimit when the scenario sets one, else containerd's own (inherited).
 */
export function containerMemlockKiB(hw: NodeHardware): number | null {
  if (hw.memlockOverrideKiB !== null) return hw.memlockOverrideKiB
  return hw.memlockUnlimited ? null : hw.memlockDefaultKiB
}

/** How a GPU reaches a NIC: behind the same PCIe switch, through the same socket, or across sockets. */
export type GpuNicPath = 'switch' | 'numa' | 'cross-numa'

export function gpuNicPath(gpu: GpuDevice, nic: RdmaNic): GpuNicPath {
  if (nic.pcieSwitch !== null && gpu.pcieSwitch === nic.pcieSwitch) return 'switch'
  return gpu.numaNode === nic.numaNode ? 'numa' : 'cross-numa'
}

export function ibNics(hw: NodeHardware): RdmaNic[] {
  return hw.nics.filter(n => n.linkLayer === 'InfiniBand')
}

/** Per-node hardware of the whole cluster, with change notification. */
export class HardwareRegistry {
  private readonly nodes = new Map<string, NodeHardware>()
  private readonly listeners = new Set<(node: string) => void>()

  add(hw: NodeHardware): void {
    this.nodes.set(hw.nodeName, hw)
  }
  remove(name: string): void {
    this.nodes.delete(name)
  }
  get(name: string): NodeHardware | undefined {
    return this.nodes.get(name)
  }
  all(): NodeHardware[] {
    return [...this.nodes.values()]
  }
  /** Applies `fn` and tells listeners the node changed. */
  update(name: string, fn: (hw: NodeHardware) => void): void {
    const hw = this.nodes.get(name)
    if (!hw) return
    fn(hw)
    for (const l of this.listeners) l(name)
  }
  onChange(l: (node: string) => void): () => void {
    this.listeners.add(l)
    return () => this.listeners.delete(l)
  }
}

/**
 * GPU memory can be exported as dma-buf: the driver is up with the open kernel modules on GPUs they
 * support (cuDeviceGetAttribute CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED is 0 under the proprietary ones).
 */
export function dmabufAvailable(hw: NodeHardware): boolean {
  return hw.gpuDmabuf && hw.gpuDriverReady && hw.gpuKernelModules === 'open'
}

/**
 * The modules the driver container loads for its KERNEL_MODULE_TYPE (NVIDIA/gpu-driver-container
 * `nvidia-driver`): open or proprietary as asked; auto picks open from the R560 branch on GPUs the
 * open modules support (Turing and later; not the V100) and proprietary
 * otherwise. Open asked on GPUs they do not support is modelled as proprietary.
 */
export function kernelModulesOf(
  type: string,
  driverVersion: string,
  hw: NodeHardware
): 'open' | 'proprietary' {
  if (type === 'proprietary' || /V100/.test(hw.spec.gpuName ?? '')) return 'proprietary'
  if (type === 'open') return 'open'
  return Number(driverVersion.split('.')[0]) >= 560 ? 'open' : 'proprietary'
}
