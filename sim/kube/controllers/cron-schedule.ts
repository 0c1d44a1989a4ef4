// Cron schedules as the CronJob controller reads them (robfig/cron/v3 ParseStandard, which
// kubernetes/kubernetes@v1.33.2 pkg/controller/cronjob uses): five fields — minute, hour, day of
// month, month (1-12 or JAN-DEC), day of week (0-6 or SUN-SAT, 7 = Sunday) — each `*`, `?`, a value,
// a range `a-b`, a step `/n`, or a list; the descriptors @yearly, @annually, @monthly, @weekly,
// @daily, @midnight, @hourly; an optional `CRON_TZ=` / `TZ=` prefix. When both day fields are
// restricted a day matching either is a match (cron's rule). Times are matched in `timeZone`
// (IANA, through Intl), UTC without one.
const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *'
}
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat']

interface Field {
  values: Set<number>
  star: boolean
}

export interface CronSchedule {
  minute: Field
  hour: Field
  dom: Field
  month: Field
  dow: Field
  timeZone?: string
}

function parseField(text: string, min: number, max: number, names?: string[]): Field {
  const values = new Set<number>()
  let star = false
  const num = (s: string): number => {
    const i = names ? names.indexOf(s.toLowerCase()) : -1
    if (i >= 0) return i + (names === MONTHS ? 1 : 0)
    if (!/^\d+$/.test(s)) throw new Error(`failed to parse int from ${s}`)
    return Number(s)
  }
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/')
    const step = stepText === undefined ? 1 : num(stepText)
    let lo: number
    let hi: number
    if (range === '*' || range === '?') {
      ;[lo, hi] = [min, max]
      if (stepText === undefined) star = true
    } else if (range.includes('-')) {
      const [a, b] = range.split('-')
      ;[lo, hi] = [num(a), num(b)]
    } else {
      lo = num(range)
      hi = stepText === undefined ? lo : max
    }
    if (lo < min || hi > max || lo > hi || step < 1) throw new Error(`beyond range: ${part}`)
    for (let v = lo; v <= hi; v += step) values.add(v)
  }
  return { values, star }
}

/** Parses a standard cron spec; throws on what ParseStandard refuses. */
export function parseCron(spec: string, timeZone?: string): CronSchedule {
  let text = spec.trim()
  let tz = timeZone
  const m = /^(?:CRON_TZ|TZ)=(\S+)\s+(.*)$/.exec(text)
  if (m) [tz, text] = [m[1], m[2]]
  text = DESCRIPTORS[text] ?? text
  const f = text.split(/\s+/)
  if (f.length !== 5) throw new Error(`expected exactly 5 fields, found ${f.length}: [${f.join(' ')}]`)
  const dow = parseField(f[4], 0, 7, DAYS)
  if (dow.values.delete(7)) dow.values.add(0)
  return {
    minute: parseField(f[0], 0, 59),
    hour: parseField(f[1], 0, 23),
    dom: parseField(f[2], 1, 31),
    month: parseField(f[3], 1, 12, MONTHS),
    dow,
    ...(tz ? { timeZone: tz } : {})
  }
}

function fieldsAt(ms: number, timeZone?: string) {
  if (!timeZone || timeZone === 'UTC' || timeZone === 'Etc/UTC') {
    const d = new Date(ms)
    return {
      minute: d.getUTCMinutes(),
      hour: d.getUTCHours(),
      dom: d.getUTCDate(),
      month: d.getUTCMonth() + 1,
      dow: d.getUTCDay()
    }
  }
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      minute: 'numeric',
      hour: 'numeric',
      day: 'numeric',
      month: 'numeric',
      weekday: 'short'
    })
      .formatToParts(new Date(ms))
      .map(p => [p.type, p.value])
  )
  return {
    minute: Number(parts.minute),
    hour: Number(parts.hour),
    dom: Number(parts.day),
    month: Number(parts.month),
    dow: DAYS.indexOf(String(parts.weekday).slice(0, 3).toLowerCase())
  }
}

/** Whether the schedule fires at the minute starting at `ms`. */
export function firesAt(s: CronSchedule, ms: number): boolean {
  const f = fieldsAt(ms, s.timeZone)
  if (!s.minute.values.has(f.minute) || !s.hour.values.has(f.hour) || !s.month.values.has(f.month))
    return false
  const domOk = s.dom.values.has(f.dom)
  const dowOk = s.dow.values.has(f.dow)
  return s.dom.star || s.dow.star ? domOk && dowOk : domOk || dowOk
}

const MINUTE = 60_000

/** Schedule times t with after < t <= until (at most `limit`, the latest kept), ascending. */
export function fireTimes(s: CronSchedule, after: number, until: number, limit = 101): number[] {
  const out: number[] = []
  for (let t = Math.floor(after / MINUTE) * MINUTE + MINUTE; t <= until; t += MINUTE) {
    if (!firesAt(s, t)) continue
    out.push(t)
    if (out.length > limit) out.shift()
  }
  return out
}

/** The first schedule time after `after` (within a year), or undefined. */
export function nextFire(s: CronSchedule, after: number): number | undefined {
  for (let t = Math.floor(after / MINUTE) * MINUTE + MINUTE, n = 0; n < 366 * 24 * 60; t += MINUTE, n++)
    if (firesAt(s, t)) return t
  return undefined
}
