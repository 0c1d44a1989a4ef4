// Component 5: the NVIDIA Network Operator helm release, its NFD confined to the managed pools.
// Docs: docs/design.md#what-the-stack-touches-beyond-the-pool, docs/guide-departures.md.
import type { KubeObject } from '../kube/types.js'
import { deepMerge, isPlainObject } from '../util/merge.js'
import type { Health } from '../health/types.js'
import { poolAffinity, stackPoolNames } from '../model/stack-pools.js'
import { nodeAgentTolerations } from '../model/tolerations.js'
import { NETWORK_OPERATOR_NAMESPACE, NVIDIA_HELM_REPO, privilegedNamespace, releasePods } from './shared.js'
import { noDriftExtras, noHints, type Desired, type KubeComponent } from './types.js'
import type { Settings } from '../settings/settings.js'

/** Where the chart (v26.4.1) takes the NFD worker's pod settings: its node-feature-discovery subchart. */
export const NFD_WORKER_VALUES = 'node-feature-discovery.worker'

export function networkOperatorValues(s: Settings): Record<string, unknown> {
  return deepMerge(
    {
      nfd: { enabled: true, deployNodeFeatureRules: false },
      'node-feature-discovery': {
        worker: {
          affinity: poolAffinity(s),
          tolerations: nodeAgentTolerations(s)
        }
      }
    },
    s.stack.networkOperatorValues
  )
}

/** The NFD worker's tolerations as the values give them (a values file may replace them). */
export function nfdWorkerTolerations(s: Settings): unknown[] {
  const nfd = networkOperatorValues(s)['node-feature-discovery']
  const worker = isPlainObject(nfd) && isPlainObject(nfd.worker) ? nfd.worker : {}
  return Array.isArray(worker.tolerations) ? worker.tolerations : []
}

function desired(s: Settings): Desired & { helm: NonNullable<Desired['helm']> } {
  return {
    title: `NVIDIA Network Operator ${s.stack.networkOperatorVersion}`,
    manifests: [privilegedNamespace(NETWORK_OPERATOR_NAMESPACE)],
    helm: {
      release: 'network-operator',
      chart: `${NVIDIA_HELM_REPO.name}/network-operator`,
      repo: { ...NVIDIA_HELM_REPO },
      version: s.stack.networkOperatorVersion,
      namespace: NETWORK_OPERATOR_NAMESPACE,
      values: networkOperatorValues(s)
    },
    version: { value: s.stack.networkOperatorVersion },
    departsFromGuide:
      'helm upgrade --install (re-runnable) with a pinned version, and only when the deployed chart or values differ. ' +
      `The NFD worker runs only on the managed pools (${stackPoolNames(s).join(', ')}) and tolerates their taints (${NFD_WORKER_VALUES}.affinity / .tolerations): ` +
      'the guide leaves it tolerating nvidia.com/gpu only, so a tainted pool is never labelled.'
  }
}

export function deploymentAvailable(d: KubeObject): { ok: boolean; detail: string } {
  const st = d.status ?? {}
  const want = d.spec?.replicas ?? 1
  const available = (st.conditions ?? []).some((c: any) => c.type === 'Available' && c.status === 'True')
  const current = (st.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  const updated = st.updatedReplicas ?? 0
  const avail = st.availableReplicas ?? 0
  const ok = available && current && updated >= want && avail >= want
  return { ok, detail: `${avail}/${want} available${available ? '' : ', condition Available not True'}` }
}

function health(s: Settings): Health {
  const { release, namespace } = desired(s).helm
  // The chart names its operator Deployment after the release.
  const isOperator = (d: KubeObject): boolean =>
    d.metadata.name === release || d.metadata.labels?.['app.kubernetes.io/name'] === release
  return {
    summary: 'release deployed and the operator Deployment available',
    sources: { deployments: { name: 'deployments', apiVersion: 'apps/v1', kind: 'Deployment', namespace } },
    cluster: [
      {
        text: `deployment/${release} -n ${namespace} Available, every replica of the current spec`,
        check: snap => {
          const ops = (snap.deployments ?? []).filter(isOperator)
          const target = ops.find(d => d.metadata.name === release) ?? ops[0]
          if (!target)
            return {
              ok: false,
              message: `waiting for deployment/${release}`,
              problem: `deployment/${release} -n ${namespace} not found`
            }
          const a = deploymentAvailable(target)
          const message = `operator deployment/${target.metadata.name} ${a.ok ? 'available' : 'not yet available'} (${a.detail})`
          return { ok: a.ok, message }
        }
      }
    ],
    warnings: []
  }
}

export const networkOperator: KubeComponent = {
  name: 'network-operator',
  kind: 'helm',
  skip: () => undefined,
  desired,
  health,
  placement: { on: 'cluster' },
  driftExtras: noDriftExtras,
  hints: noHints,
  check: null,
  removal: s => releasePods(desired(s).helm.release, desired(s).helm.namespace)
}
