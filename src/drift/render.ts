// Drift items as log lines, showing what the job summary's Drift table shows; cluster values stay text,
// never workflow commands. Docs: docs/drift.md, docs/security.md#results-under-actions.
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
