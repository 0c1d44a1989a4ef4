// Durations as the inputs and scenarios write them (`90s`, `25m`, `1h`, `1h30m`, `500ms`) and as
// logs print them (`4m10s`).

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }
const DURATION_RE = /^(?:\d+(?:\.\d+)?(?:ms|h|m|s))+$/
const PART_RE = /(\d+(?:\.\d+)?)(ms|h|m|s)/g

/** Parses a duration to milliseconds; returns undefined when it is not one. A bare number is seconds. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim()
  if (/^\d+(?:\.\d+)?$/.test(t)) return Number(t) * 1000
  if (!DURATION_RE.test(t)) return undefined
  let total = 0
  for (const m of t.matchAll(PART_RE)) total += Number(m[1]) * UNIT_MS[m[2]]
  return total
}

/** Formats milliseconds as `1h2m3s`, `4m10s`, `12s` or `850ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`
  let s = Math.round(ms / 1000)
  const h = Math.floor(s / 3600)
  s -= h * 3600
  const m = Math.floor(s / 60)
  s -= m * 60
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s || (!h && !m) ? `${s}s` : ''}`
}
