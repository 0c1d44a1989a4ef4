// The settings the action reads from the valid apply inputs (support/inputs.ts) with some inputs
// changed, for the unit tests that need a whole Settings object.
import { readSettings } from '../../src/settings/input-helper.js'
import type { Settings } from '../../src/settings/settings.js'
import { reader, VALID_APPLY } from './inputs.js'

/** Settings from VALID_APPLY overlaid with `over`, read under the runner environment `env`. */
export const applySettings = (over: Record<string, string> = {}, env: NodeJS.ProcessEnv = {}): Settings =>
  readSettings(reader({ ...VALID_APPLY, ...over }), env).settings
