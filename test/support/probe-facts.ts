// Unit-test helper: a node's facts as the node probe reports them (src/verify/probe-output.ts's
// NodeFacts), without a probe pod: built field by field for the benchmark (`n` active 400 Gb/s
// devices, NIC i with a local GPU), or parsed from a real probe message over the HB ibstat fixture
// (one GPU and mlx5_ib0 on one PCI bus, an HDR 200 port) as the transport check reads it.
import { readFileSync } from 'node:fs'
import { parseProbeOutput, type NodeFacts } from '../../src/verify/probe-output.js'
import { probeMessage } from './probe-message.js'

export interface BenchFactsOptions {
  /** Each NIC's local GPU (null: none); NIC i has GPU i by default. */
  local?: Array<number | null>
  /** GPUs on the node; 8 by default. */
  gpus?: number
  /** nvidia_peermem loaded (null: unknown); true by default. */
  peermem?: boolean | null
  /** The GPU driver runs the open kernel modules (null: unknown); true by default. */
  openModules?: boolean | null
  /** The probe's error. */
  error?: string
}

/** Probe facts of a node: `n` active 400 Gb/s devices, NIC i with local GPU `local[i]` (default i). */
export function benchFacts(node: string, n: number, o: BenchFactsOptions = {}): NodeFacts {
  const devices = Array.from({ length: n }, (_, i) => `mlx5_ib${i}`)
  return {
    node,
    ibPorts: [],
    activeDevices: devices,
    rateGbps: Object.fromEntries(devices.map(d => [d, 400])),
    memlock: 'unlimited',
    memlockUnlimited: true,
    peermemLoaded: o.peermem === undefined ? true : o.peermem,
    openKernelModules: o.openModules === undefined ? true : o.openModules,
    gpus: Array.from({ length: o.gpus ?? 8 }, (_, i) => ({
      pciAddress: `0000:${(i + 16).toString(16)}:00.0`,
      numaNode: 0,
      upstream: [],
      cudaIndex: i
    })) as unknown as NodeFacts['gpus'],
    nics: devices.map((device, i) => {
      const g = o.local ? o.local[i] : i
      return {
        device,
        pciAddress: '',
        numaNode: 0,
        upstream: ['', ''],
        localGpu: g,
        locality: g === null ? null : 'numa'
      }
    }) as unknown as NodeFacts['nics'],
    error: o.error ?? null,
    ibstatError: null
  }
}

/** One GPU and mlx5_ib0 on one PCI bus (the HB fixture's HDR 200 port). */
export const HB_TOPOLOGY = [
  'gpu 0001:00:00.0 0x030200 0 pci0001:00 00000001-0001-0000-3130-444531454238',
  'nic mlx5_ib0 0101:00:00.0 0 pci0101:00 00000101-0101-0000-3130-444531454238'
]

/** The facts the probe reads on an HB node with one GPU next to its NIC. */
export const hbFacts = (node: string): NodeFacts =>
  parseProbeOutput(
    node,
    probeMessage(
      readFileSync(
        new URL('../fixtures/ibstat/01-ibstat-azure-hb120v3-hdr200-mlx5_ib0.txt', import.meta.url),
        'utf8'
      ),
      { topology: HB_TOPOLOGY }
    )
  )

/** The facts by node; a name stands for hbFacts(name). */
export const factsOf = (...nodes: Array<NodeFacts | string>): Map<string, NodeFacts> =>
  new Map(nodes.map(n => (typeof n === 'string' ? hbFacts(n) : n)).map(f => [f.node, f]))
