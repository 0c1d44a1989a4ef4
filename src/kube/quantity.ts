// Kubernetes resource quantities as numbers: `8`, `63`, `1k` (1000), `100m` (0.1), `16Gi`, `1e3`.
// Node allocatable values are quantity strings, so `1k` means a thousand, not "one"; allocatable()
// reads one from a node.
import type { KubeObject } from './types.js'

const DECIMAL: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18
}
const BINARY: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60
}
const QUANTITY_RE = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])|[eE]([+-]?\d+))?$/

/** The numeric value of a quantity; undefined when the text is not one. */
export function parseQuantity(text: string | number | undefined | null): number | undefined {
  if (typeof text === 'number') return Number.isFinite(text) ? text : undefined
  if (typeof text !== 'string') return undefined
  const m = QUANTITY_RE.exec(text.trim())
  if (!m) return undefined
  const n = Number(m[1])
  if (m[3] !== undefined) return n * 10 ** Number(m[3])
  const suffix = m[2] ?? ''
  return n * (BINARY[suffix] ?? DECIMAL[suffix])
}

/** The allocatable amount of a resource on a node: the text as the node reports it and its value (`1k` → 1000; absent → 0). */
export function allocatable(node: KubeObject, resource: string): { text: string | undefined; value: number } {
  const text: string | undefined = node.status?.allocatable?.[resource]
  return { text, value: parseQuantity(text) ?? 0 }
}
