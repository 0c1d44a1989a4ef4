// The problems the settings report for a set of inputs (an InputError's list, none when they are
// valid), for the unit tests of the input rules in test/unit/settings.
import { InputError, readSettings } from '../../src/settings/input-helper.js'
import { reader } from './inputs.js'

/** The problems reading `values` (exactly these inputs, no runner environment) reports; [] when valid. */
export function problemsOf(values: Record<string, string>): string[] {
  try {
    readSettings(reader(values), {})
  } catch (e) {
    if (e instanceof InputError) return e.problems
    throw e
  }
  return []
}
