// What a benchmark blames (a node, one NIC, or a link) and its name in the report and logs (`node`,
// `node/mlx5_ibN`, `a/dev ↔ b/dev`), read back by parseOutlierName. Docs: docs/benchmark.md.

/** One end of a measurement: a node, and the device when the measurement is per device. */
export interface OutlierEnd {
  node: string
  device: string | null
}

/** A whole node, one NIC of a node, or a link neither of whose ends is slow with its other partners. */
export type Outlier =
  | { kind: 'node'; node: string }
  | { kind: 'nic'; node: string; device: string }
  | { kind: 'link'; a: OutlierEnd; b: OutlierEnd }

const LINK = ' ↔ '

function endName(e: OutlierEnd): string {
  return e.device ? `${e.node}/${e.device}` : e.node
}

/** The outlier's name in the report and the logs. */
export function outlierName(o: Outlier): string {
  switch (o.kind) {
    case 'node':
      return o.node
    case 'nic':
      return `${o.node}/${o.device}`
    case 'link':
      return `${endName(o.a)}${LINK}${endName(o.b)}`
  }
}

/** An end as an outlier of its own: the NIC, or the node when the measurement was not per device. */
export function endOutlier(e: OutlierEnd): Outlier {
  return e.device ? { kind: 'nic', node: e.node, device: e.device } : { kind: 'node', node: e.node }
}

function parseEnd(name: string): OutlierEnd {
  const slash = name.indexOf('/')
  return slash < 0
    ? { node: name, device: null }
    : { node: name.slice(0, slash), device: name.slice(slash + 1) }
}

/** A name from a report (outlierName's form) as its value. */
export function parseOutlierName(name: string): Outlier {
  const link = name.indexOf(LINK)
  if (link >= 0)
    return { kind: 'link', a: parseEnd(name.slice(0, link)), b: parseEnd(name.slice(link + LINK.length)) }
  return endOutlier(parseEnd(name))
}

/** Distinct outliers, sorted by name (as the report lists them). */
export function sortedOutliers(list: Iterable<Outlier>): Outlier[] {
  const byName = new Map<string, Outlier>()
  for (const o of list) byName.set(outlierName(o), o)
  return [...byName.keys()].sort().map(n => byName.get(n)!)
}
