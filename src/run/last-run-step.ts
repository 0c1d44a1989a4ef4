// At the end of an apply or uninstall that changed something: the run's end, mode, result and version into the ownership
// record (stack/last-run.ts), which `status` shows. A failure to write it is a warning: the run's
// own result stands (docs/day-two.md "What is installed here: status").
import { KubeClient } from '../kube/client.js'
import { messageOf } from '../kube/errors.js'
import { log } from '../log/index.js'
import type { Settings } from '../settings/settings.js'
import { recordLastRun } from '../stack/last-run.js'
import { actionVersion } from '../util/version.js'

export async function recordRunEnd(s: Settings, kubeconfigPath: string, result: string): Promise<void> {
  try {
    const kube = KubeClient.fromFile(kubeconfigPath, { retries: s.wait.retries })
    const r = await recordLastRun(kube, {
      at: new Date().toISOString(),
      mode: s.mode,
      result,
      version: actionVersion(),
      runId: s.runId
    })
    if (r === 'absent') log.debug('no ownership record on the cluster: the run is not recorded in it')
  } catch (e) {
    log.warning(`recording the run in the ownership record failed: ${messageOf(e)}`)
  }
}
