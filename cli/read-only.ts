// The CLI's read-only looks at a live cluster: `status` and `uninstall --dry-run`. Nothing is written to
// the cluster. Docs: docs/day-two.md#what-is-installed-here-status.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { EXIT } from '../src/exit-codes.js'
import { log } from '../src/log/index.js'
import { actionInputReader } from '../src/run/inputs.js'
import { InputError, readSettings } from '../src/settings/input-helper.js'
import { resolveKubeconfig, writeGivenKubeconfig } from '../src/settings/kubeconfig.js'
import type { Settings } from '../src/settings/settings.js'
import { KubeClient } from '../src/kube/client.js'
import { messageOf } from '../src/kube/errors.js'
import type { StatusDocument } from '../src/status/status.js'
import { kubeRecordStore } from '../src/stack/ownership.js'
import { useLocalToolCache } from './local-runner.js'
import { shownServer } from './local-context.js'

export type ReadOnlyLook = 'status' | 'uninstall-preview'

interface Reached {
  path: string
  cluster: StatusDocument['cluster']
  stop(): void
}

/** The cluster's kubeconfig in `dir`: the given one's context, or the Azure cluster's credentials. */
async function reach(s: Settings, dir: string): Promise<Reached> {
  if (s.cluster.kubeconfig) {
    const r = resolveKubeconfig(s.cluster.kubeconfig)
    for (const secret of r.secrets) log.secret(secret)
    return {
      path: writeGivenKubeconfig(r, dir),
      cluster: { context: r.context, cluster: r.cluster, server: shownServer(r.server) },
      stop: () => undefined
    }
  }
  const { connectAzure, writeClusterCredentials } = await import('../src/azure/index.js')
  const conn = connectAzure(s, log)
  const k = await writeClusterCredentials(conn.clients, s, conn.auth.credential, { log, dir })
  k.refresher?.start()
  return {
    path: k.path,
    cluster: { resourceGroup: s.cluster.resourceGroup, name: s.cluster.name },
    stop: () => k.refresher?.stop()
  }
}

/** What to say when the cluster could not be read: which cluster, the cause, and what fixes it. */
function unreachable(c: StatusDocument['cluster'], e: unknown): string {
  const which =
    c.context !== undefined
      ? `the cluster of context ${c.context} (cluster ${c.cluster}, server ${c.server})`
      : `cluster ${c.resourceGroup}/${c.name}`
  const fix =
    c.context !== undefined
      ? 'check that this context is the cluster you mean (kubectl config get-contexts; --context or --kubeconfig choose another), that its API server is reachable from here, and that its credentials are current (az aks get-credentials --resource-group RG --name CLUSTER)'
      : 'check the cluster exists and its API server is reachable from here, and that this identity may read its credentials'
  return `cannot read ${which}: ${messageOf(e)}. Fix: ${fix}`
}

/**
 * Reads inputs as drift (status) or uninstall (the preview) reads them and reaches the cluster as
 * verify does. A private folder holds the kubeconfig copy for the look and is removed after it.
 */
export async function runReadOnly(
  look: ReadOnlyLook,
  output: 'text' | 'json',
  print: (text: string) => void
): Promise<number> {
  let settings: Settings
  try {
    const parsed = readSettings(actionInputReader, process.env)
    for (const secret of parsed.secrets) log.secret(secret)
    for (const w of parsed.warnings) log.warning(w)
    settings = parsed.settings
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    log.error(e.message)
    return EXIT.usage
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'aks-rdma-status-'))
  let cluster: StatusDocument['cluster'] = {
    resourceGroup: settings.cluster.resourceGroup,
    name: settings.cluster.name
  }
  let reached: Reached | undefined
  let reachedCluster = false
  try {
    reached = await reach(settings, dir)
    cluster = reached.cluster
    // Few retries: an unreachable server is said at once, not after minutes of backoff.
    const kube = KubeClient.fromFile(reached.path, { retries: Math.min(settings.wait.retries, 2), log })
    // The first read (the ownership record, which both looks read) says whether the cluster answers.
    await kubeRecordStore(kube).read()
    reachedCluster = true
    // Where a helm download goes, as on a runner: this look's own folder unless RUNNER_TEMP is set.
    useLocalToolCache(process.env)
    process.env.RUNNER_TEMP ||= dir
    const { createHelmReleases } = await import('../src/stack/helm-release.js')
    const helm = createHelmReleases(settings, reached.path, log)
    const readers = {
      settings,
      kube,
      helmStatus: (release: string, namespace: string) => helm.status(release, namespace),
      cluster
    }
    if (look === 'status') {
      const { readStatus } = await import('../src/status/status.js')
      const { renderStatusText } = await import('../src/status/render.js')
      const doc = await readStatus(readers)
      print(output === 'json' ? JSON.stringify(doc, null, 2) + '\n' : renderStatusText(doc))
    } else {
      const { previewUninstall } = await import('../src/status/uninstall-preview.js')
      const { renderPreviewText } = await import('../src/status/render.js')
      const doc = await previewUninstall(readers)
      print(output === 'json' ? JSON.stringify(doc, null, 2) + '\n' : renderPreviewText(doc))
    }
    return EXIT.success
  } catch (e) {
    const what = look === 'status' ? 'status' : 'uninstall --dry-run'
    if (reachedCluster) log.error(`${what}: ${messageOf(e)}`, { title: `${what} failed` })
    else log.error(unreachable(cluster, e), { title: `${what}: the cluster could not be read` })
    return EXIT.failure
  } finally {
    reached?.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
