// Unit-test helper: the settings a stack unit test runs Run or uninstall with — a valid apply's,
// run id run-1, helm pinned to the stand-in on PATH (helm-standin-bin.ts), the test's stack flags and
// step timeout. See CONTRIBUTING.md "Tests".
import { readSettings } from '../../src/settings/input-helper.js'
import type { Settings } from '../../src/settings/settings.js'
import type { HelmOnPath } from './helm-standin-bin.js'
import { reader, VALID_APPLY } from './inputs.js'

export function pinnedHelmSettings(
  helm: HelmOnPath,
  o: { stack?: Partial<Settings['stack']>; stepTimeoutMs?: number } = {}
): Settings {
  const base: Settings = readSettings(reader({ ...VALID_APPLY }), {}).settings
  return {
    ...base,
    runId: 'run-1',
    stack: { ...base.stack, helmVersion: helm.version, helmSha256: helm.sha256, ...o.stack },
    wait: { ...base.wait, stepTimeoutMs: o.stepTimeoutMs ?? base.wait.stepTimeoutMs }
  }
}
