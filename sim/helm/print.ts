// helm's human-readable output: the release summary printed after install/upgrade/status, and the
// Go time formats it uses (time.ANSIC for LAST DEPLOYED, time.Time.String for `list`'s UPDATED).
import type { Release } from './releases.js'

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const pad = (n: number, w = 2): string => String(n).padStart(w, '0')

/** Go's time.ANSIC in UTC: `Mon Jan _2 15:04:05 2006`. */
export function ansic(iso: string): string {
  const d = new Date(iso)
  const day = String(d.getUTCDate()).padStart(2, ' ')
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${day} ${time} ${d.getUTCFullYear()}`
}

/** Go's time.Time.String() in UTC: `2006-01-02 15:04:05.999999999 +0000 UTC`. */
export function goTimeString(iso: string): string {
  const d = new Date(iso)
  const ms = d.getUTCMilliseconds()
  const frac = ms ? `.${pad(ms, 3)}`.replace(/0+$/, '') : ''
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac} +0000 UTC`
  )
}

/** The block helm prints for a release (install, upgrade, status). */
export function releaseSummary(rel: Release): string {
  const lines = [
    `NAME: ${rel.name}`,
    `LAST DEPLOYED: ${ansic(rel.info.last_deployed)}`,
    `NAMESPACE: ${rel.namespace}`,
    `STATUS: ${rel.info.status}`,
    `REVISION: ${rel.version}`,
    'TEST SUITE: None'
  ]
  if (rel.info.notes) lines.push('NOTES:', rel.info.notes.trimEnd())
  return lines.join('\n') + '\n'
}
