// A drift item (src/drift/item.ts) in one call, for the tests that expect the drift the action
// reports: component, field, desired, actual, whether apply fixes it, and the hint if any.
import type { DriftItem } from '../../src/drift/item.js'

export const driftItem = (
  component: string,
  field: string,
  desired: string,
  actual: string,
  fixableByApply: boolean,
  hint?: string
): DriftItem => ({
  component,
  field,
  desired,
  actual,
  fixableByApply,
  ...(hint === undefined ? {} : { hint })
})
