// One drifted field, as drift mode reports it and each component's drift compares (docs/day-two.md).

export interface DriftItem {
  component: string
  field: string
  desired: string
  actual: string
  fixableByApply: boolean
  hint?: string
}

/** What fixes a drifted field, in words (the summary's Fix column and the log say the same). */
export function driftFix(d: DriftItem): string {
  return d.fixableByApply
    ? `mode: apply fixes this${d.hint ? ` (${d.hint})` : ''}`
    : (d.hint ?? 'manual fix needed')
}
