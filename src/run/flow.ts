// The apply / verify / drift flow (filled in as the Azure, stack and verification parts land).
import * as core from '@actions/core'
import type { Settings } from '../settings/settings.js'

export async function runFlow(settings: Settings): Promise<number> {
  core.setFailed(`mode ${settings.mode}: not available in this build yet`)
  return 1
}
