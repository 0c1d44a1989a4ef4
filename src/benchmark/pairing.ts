// Decides who benchmarks against whom: pair scope, the fleet's rounds of disjoint pairs, and NIC i ↔
// NIC i on port base + i. See docs/benchmark.md ("Pairs and NICs").

import { naturalCompare } from '../util/compare.js'

export interface NodePair {
  /** 1-based round the pair runs in; pairs of one round share no node and run in parallel. */
  round: number
  server: string
  client: string
}

export interface PairSchedule {
  rounds: NodePair[][]
  /** Each node's partners over all rounds, in round order. */
  partners: Record<string, string[]>
  /** Nodes no pair measures (only when fewer than two nodes exist). */
  unpaired: string[]
}

export interface DevicePair {
  index: number
  serverDevice: string
  clientDevice: string
  port: number
}

export const DEFAULT_BASE_PORT = 18515

function uniqueSorted(nodes: string[]): string[] {
  return [...new Set(nodes)].sort(naturalCompare)
}

function build(rounds: Array<Array<[string, string]>>, all: string[]): PairSchedule {
  const partners: Record<string, string[]> = {}
  for (const n of all) partners[n] = []
  const out = rounds
    .filter(r => r.length > 0)
    .map((pairs, i) =>
      pairs.map(([server, client]) => {
        partners[server].push(client)
        partners[client].push(server)
        return { round: i + 1, server, client }
      })
    )
  return { rounds: out, partners, unpaired: all.filter(n => partners[n].length === 0) }
}

/**
 * Fleet schedule over the ring n0–n1–…–n(N-1)–n0 of the naturally sorted, de-duplicated node names.
 * Even N: round 1 = (0,1),(2,3)…; round 2 = (1,2),(3,4)…,(N-1,0). Odd N: the same two rounds leave the
 * closing edge (N-1,0) for round 3. N = 2 is a single pair; N = 3 a triangle in 3 rounds; N < 2 nothing.
 */
export function fleetSchedule(nodes: string[]): PairSchedule {
  const all = uniqueSorted(nodes)
  const n = all.length
  if (n < 2) return build([], all)
  if (n === 2) return build([[[all[0], all[1]]]], all)
  const first: Array<[string, string]> = []
  const second: Array<[string, string]> = []
  const third: Array<[string, string]> = []
  for (let i = 0; i + 1 < n; i += 2) first.push([all[i], all[i + 1]])
  for (let i = 1; i + 1 < n; i += 2) second.push([all[i], all[i + 1]])
  if (n % 2 === 0) second.push([all[n - 1], all[0]])
  else third.push([all[n - 1], all[0]])
  return build([first, second, third], all)
}

/** Pair scope: the first two nodes (natural order), one round. */
export function pairScope(nodes: string[]): PairSchedule {
  const all = uniqueSorted(nodes)
  if (all.length < 2) return build([], all)
  return build([[[all[0], all[1]]]], all)
}

/**
 * Device i on the server ↔ device i on the client (both lists naturally sorted), each pair on port
 * basePort + i so all NICs of a node pair run at once. Devices only one side has are left out.
 */
export function devicePairs(
  serverDevices: string[],
  clientDevices: string[],
  basePort = DEFAULT_BASE_PORT
): DevicePair[] {
  const s = uniqueSorted(serverDevices)
  const c = uniqueSorted(clientDevices)
  const count = Math.min(s.length, c.length)
  const out: DevicePair[] = []
  for (let i = 0; i < count; i++)
    out.push({ index: i, serverDevice: s[i], clientDevice: c[i], port: basePort + i })
  return out
}
