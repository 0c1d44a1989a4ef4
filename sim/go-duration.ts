// Go's time.ParseDuration, for what the simulated tools read as Go would: helm's --timeout and the
// API server's metav1.Duration fields (`5m0s`, `300s`, `1h30m`, `1.5h`, `250ms`, `-2s`, `0`).

/** Nanoseconds per unit. */
const UNIT_NS: Record<string, number> = {
  ns: 1,
  us: 1_000,
  µs: 1_000,
  ms: 1_000_000,
  s: 1_000_000_000,
  m: 60_000_000_000,
  h: 3_600_000_000_000
}

export class GoDurationError extends Error {}

/** The duration in nanoseconds; throws GoDurationError with Go's own message when it is not one. */
export function parseGoDurationNs(text: string): number {
  if (text === '0') return 0
  let body = text
  let sign = 1
  if (body.startsWith('-') || body.startsWith('+')) {
    sign = body.startsWith('-') ? -1 : 1
    body = body.slice(1)
  }
  if (!body) throw new GoDurationError(`time: invalid duration "${text}"`)
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y
  let total = 0
  let pos = 0
  while (pos < body.length) {
    re.lastIndex = pos
    const m = re.exec(body)
    if (!m) {
      if (/^\d+(?:\.\d*)?$/.test(body.slice(pos)))
        throw new GoDurationError(`time: missing unit in duration "${text}"`)
      throw new GoDurationError(`time: invalid duration "${text}"`)
    }
    total += Number(m[1]) * UNIT_NS[m[2]]
    pos = re.lastIndex
  }
  return sign * Math.round(total)
}
