// Ordering names the way a person reads them: node-2 before node-10, mlx5_ib2 before mlx5_ib10.

/** Sorts names so `node-2` comes before `node-10` and `mlx5_ib2` before `mlx5_ib10`, independent of locale. */
export function naturalCompare(a: string, b: string): number {
  const re = /(\d+)|(\D+)/g
  const pa = a.match(re) ?? []
  const pb = b.match(re) ?? []
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i]
    const y = pb[i]
    if (x === y) continue
    const nx = /^\d+$/.test(x)
    const ny = /^\d+$/.test(y)
    if (nx && ny) {
      const d = Number(x) - Number(y)
      if (d !== 0) return d
      return x.length - y.length
    }
    return x < y ? -1 : 1
  }
  return pa.length - pb.length
}
