// Drift mode: every enabled component of the desired state (buildStack) compared with the live
// one, strictly read-only — ARM GETs, Kubernetes GETs and paginated lists, dry-run applies
// (dryRun=All) and `helm status` / `helm get values`; never a write, never a helm upgrade. Each
// difference becomes one DriftItem naming the component, the field, both values and whether
// apply fixes it. The read-only verification checks (node labels, readiness) run separately.
import type { AzureConnection } from '../azure/index.js'
import { ensureHelm, Helm } from '../helm/index.js'
import { KubeClient } from '../kube/client.js'
import { messageOf } from '../kube/errors.js'
import { buildStack } from '../model/stack.js'
import type { ComponentSpec } from '../model/types.js'
import type { DriftItem } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import { featureDrift, poolDrift } from './azure.js'
import { releaseDrift, releaseName, type ReleaseDrift } from './helm.js'
import { manifestDrift, objectName } from './manifests.js'
import { clusterPolicyRdmaDrift, devicePluginPodsDrift, ofedDriverDrift } from './running.js'

export { objectName } from './manifests.js'
export { releaseName } from './helm.js'

export interface DriftContext {
  settings: Settings
  azure: AzureConnection
  kubeconfigPath: string
  log?: (line: string) => void
}

/** Some components could not be read; `items` holds the drift found in the others. */
export class DriftError extends Error {
  constructor(
    message: string,
    readonly items: DriftItem[]
  ) {
    super(message)
    this.name = 'DriftError'
  }
}

interface Readers {
  ctx: DriftContext
  kube: KubeClient
  helm(): Promise<Helm>
}

/** Items whose field is about `object` (the object itself, or a path in it under `under`). */
function about(items: DriftItem[], object: string, under = ''): boolean {
  return items.some(i => i.field === object || i.field.startsWith(`${object} ${under}`))
}

async function componentDrift(c: ComponentSpec, r: Readers): Promise<DriftItem[]> {
  const s = r.ctx.settings
  if (c.name === 'infiniband-feature') return featureDrift(r.ctx.azure.clients, c.name)
  if (c.name === 'node-pool') return poolDrift(r.ctx.azure.clients, s, c.name)
  if (c.kind === 'azure' || c.kind === 'credentials') return [] // the cluster: credentials were just read from it

  const out: DriftItem[] = []
  for (const m of c.manifests ?? [])
    out.push(...(await manifestDrift(r.kube, m, { component: c.name, force: s.stack.forceConflicts })))
  let release: ReleaseDrift | undefined
  if (c.helm) {
    release = await releaseDrift(await r.helm(), c.helm, c.name)
    out.push(...release.items)
  }

  if (c.name === 'nic-cluster-policy') {
    const policy = c.manifests?.find(m => m.kind === 'NicClusterPolicy')
    if (policy)
      out.push(
        ...(await ofedDriverDrift(r.kube, policy, {
          component: c.name,
          policyDrifted: about(out, objectName(policy), 'spec.ofedDriver')
        }))
      )
  }
  if (c.name === 'rdma-device-plugin') {
    const ds = c.manifests?.find(m => m.kind === 'DaemonSet')
    if (ds)
      out.push(
        ...(await devicePluginPodsDrift(r.kube, ds, {
          component: c.name,
          daemonSetDrifted: about(out, objectName(ds))
        }))
      )
  }
  if (c.name === 'gpu-operator' && c.helm && release?.status) {
    const sameChart = !release.items.some(i => i.field === `${releaseName(c.helm!)} chart`)
    if (sameChart)
      out.push(
        ...(await clusterPolicyRdmaDrift(r.kube, c.helm.values, {
          component: c.name,
          namespace: c.helm.namespace,
          release: c.helm.release,
          coveredValues: release.valuePaths
        }))
      )
  }
  return out
}

/**
 * Compares the desired state of every enabled component with the live one and returns the
 * differences, in stack order. Read-only. Throws DriftError (with the items found elsewhere)
 * when some component could not be read.
 */
export async function detectDrift(ctx: DriftContext): Promise<DriftItem[]> {
  const s = ctx.settings
  const log = ctx.log ?? (() => undefined)
  const kube = KubeClient.fromFile(ctx.kubeconfigPath, { retries: s.wait.retries, log })
  let helm: Promise<Helm> | undefined
  const readers: Readers = {
    ctx,
    kube,
    helm: () =>
      (helm ??= ensureHelm(s.stack.helmVersion, { log }).then(
        helmPath => new Helm({ helmPath, kubeconfig: ctx.kubeconfigPath })
      ))
  }
  const items: DriftItem[] = []
  const failures: string[] = []
  for (const c of buildStack(s)) {
    if (!c.enabled) continue
    try {
      const found = await componentDrift(c, readers)
      items.push(...found)
      log(
        found.length
          ? `${c.name}: ${found.length} drifted field${found.length > 1 ? 's' : ''}: ${found.map(f => f.field).join(', ')}`
          : `${c.name}: as desired`
      )
    } catch (e) {
      failures.push(`${c.name}: ${messageOf(e)}`)
      log(`${c.name}: could not be read: ${messageOf(e)}`)
    }
  }
  if (failures.length)
    throw new DriftError(
      `drift could not read ${failures.length} component${failures.length > 1 ? 's' : ''}: ${failures.join('; ')}`,
      items
    )
  return items
}
