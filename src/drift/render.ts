// Drift items as log lines, so the terminal (and the Actions log) shows what the job summary shows:
// per item the component and field, the desired and the actual value, and the fix. Multi-line values
// stay readable (continuation lines indented under their label). Values from the cluster stay text:
// the Log seam prints them through commandSafe / the terminal backend, never as workflow commands.
import { driftFix, type DriftItem } from './item.js'

const LABEL_WIDTH = 9

function labelled(label: string, value: string): string[] {
  const [first, ...rest] = value.replace(/\r\n?/g, '\n').split('\n')
  const pad = ' '.repeat(LABEL_WIDTH + 4)
  return [`    ${`${label}:`.padEnd(LABEL_WIDTH)}${first}`, ...rest.map(l => `${pad}${l}`)]
}

/** One block of lines per drifted field: `component field`, then desired, actual and the fix. */
export function driftLines(items: DriftItem[]): string[] {
  return items.flatMap(d => [
    `  ${d.component}: ${d.field}`,
    ...labelled('desired', d.desired),
    ...labelled('actual', d.actual),
    ...labelled('fix', driftFix(d))
  ])
}
