// The name closest to one given, when it is close enough to be a typo (did-you-mean in messages).

/** Levenshtein distance: insertions, deletions and substitutions. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const cur = [i]
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    prev = cur
  }
  return prev[b.length]
}

/** The closest of `names` to `given` (case-insensitively), within a third of its length (at least 2). */
export function closestName(given: string, names: readonly string[]): string | undefined {
  let best: { name: string; d: number } | undefined
  for (const name of names) {
    const d = editDistance(given.toLowerCase(), name.toLowerCase())
    if (!best || d < best.d) best = { name, d }
  }
  return best && best.d <= Math.max(2, Math.floor(given.length / 3)) ? best.name : undefined
}
