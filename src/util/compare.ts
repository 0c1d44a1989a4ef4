// Ordering names the way a person reads them: node-2 before node-10, mlx5_ib2 before mlx5_ib10.
// Allocation-free: the health rules sort a pool's nodes on every watch event.

const isDigit = (c: number): boolean => c >= 48 && c <= 57

/** Where the run of digits (or of non-digits) that starts at `i` ends. */
function runEnd(s: string, i: number): number {
  const digits = isDigit(s.charCodeAt(i))
  let k = i + 1
  while (k < s.length && isDigit(s.charCodeAt(k)) === digits) k++
  return k
}

/** Runs left in `s` from `i`. */
function runsFrom(s: string, i: number): number {
  let n = 0
  for (let k = i; k < s.length; k = runEnd(s, k)) n++
  return n
}

/** Two runs of digits by value, then the shorter (fewer leading zeros) first. */
function compareNumbers(a: string, i: number, ie: number, b: string, j: number, je: number): number {
  let za = i
  while (za < ie - 1 && a.charCodeAt(za) === 48) za++
  let zb = j
  while (zb < je - 1 && b.charCodeAt(zb) === 48) zb++
  if (ie - za !== je - zb) return ie - za - (je - zb)
  for (let k = 0; k < ie - za; k++) {
    const d = a.charCodeAt(za + k) - b.charCodeAt(zb + k)
    if (d !== 0) return d
  }
  return ie - i - (je - j)
}

/** Two runs as strings compare (a run that is a prefix of the other comes first). */
function compareText(a: string, i: number, ie: number, b: string, j: number, je: number): number {
  for (let k = 0; k < Math.min(ie - i, je - j); k++) {
    const d = a.charCodeAt(i + k) - b.charCodeAt(j + k)
    if (d !== 0) return d < 0 ? -1 : 1
  }
  return ie - i === je - j ? 0 : ie - i < je - j ? -1 : 1
}

/** Sorts names so `node-2` comes before `node-10` and `mlx5_ib2` before `mlx5_ib10`, independent of locale. */
export function naturalCompare(a: string, b: string): number {
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    const ie = runEnd(a, i)
    const je = runEnd(b, j)
    const d =
      isDigit(a.charCodeAt(i)) && isDigit(b.charCodeAt(j))
        ? compareNumbers(a, i, ie, b, j, je)
        : compareText(a, i, ie, b, j, je)
    if (d !== 0) return d
    i = ie
    j = je
  }
  return runsFrom(a, i) - runsFrom(b, j)
}
