// The StatefulSet controller (kubernetes/kubernetes@v1.33.2 pkg/controller/statefulset/
// stateful_set_control.go, stateful_set_utils.go): pods `<set>-<ordinal>` from spec.ordinals.start,
// each with hostname = its name, subdomain = spec.serviceName, the labels
// `statefulset.kubernetes.io/pod-name`, `apps.kubernetes.io/pod-index` and
// `controller-revision-hash`, and a PersistentVolumeClaim `<claim>-<set>-<ordinal>` per volume
// claim template. OrderedReady (the default) creates one pod at a time, each once every lower
// ordinal is Running and Ready, and scales down from the highest ordinal, one pod at a time;
// Parallel does both at once. A RollingUpdate replaces pods of an older revision from the highest
// ordinal down, one at a time, each once the others are Ready (OnDelete: only pods deleted by
// hand). Status: replicas, readyReplicas, currentReplicas, updatedReplicas, availableReplicas,
// currentRevision, updateRevision, collisionCount, observedGeneration.
import type { KubeObject } from '../store.js'
import { StoreError } from '../store.js'
import {
  createIfAbsent,
  deleteIfPresent,
  isControlledBy,
  isPodReady,
  isPodTerminal,
  ownerRef,
  typeFromKey,
  type SimContext
} from './context.js'
import { templateHash } from './daemonset.js'
import type { Reconciler } from './queue.js'

const STS_KEY = 'statefulsets.apps'
const REVISION_LABEL = 'controller-revision-hash'

function ordinalOf(set: KubeObject, pod: KubeObject): number | undefined {
  const m = new RegExp(`^${set.metadata.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d+)$`).exec(
    pod.metadata.name
  )
  return m ? Number(m[1]) : undefined
}

export class StatefulSetController implements Reconciler {
  readonly name = 'statefulset'
  constructor(private readonly ctx: SimContext) {
    ctx.cache.onEvent((e, tk) => {
      const o = e.object
      if (tk === STS_KEY && e.type !== 'DELETED')
        ctx.queue.add(this, `${o.metadata.namespace}/${o.metadata.name}`)
      else if (tk === 'pods') {
        const ref = (o.metadata.ownerReferences ?? []).find(r => r.kind === 'StatefulSet' && r.controller)
        if (ref) ctx.queue.add(this, `${o.metadata.namespace}/${ref.name}`)
      }
    })
    for (const s of ctx.cache.list(STS_KEY)) ctx.queue.add(this, `${s.metadata.namespace}/${s.metadata.name}`)
  }

  reconcile(key: string): void {
    const [ns, name] = key.split('/')
    const set = this.ctx.cache.get(STS_KEY, ns, name)
    const podT = typeFromKey(this.ctx, 'pods')
    if (!set || !podT || set.metadata.deletionTimestamp) return
    const replicas: number = set.spec?.replicas ?? 1
    const start: number = set.spec?.ordinals?.start ?? 0
    const parallel = set.spec?.podManagementPolicy === 'Parallel'
    const updateRevision = `${name}-${templateHash(set.spec?.template)}`
    const pods = this.ctx.cache
      .list('pods', ns)
      .filter(p => isControlledBy(p, set.metadata.uid) && ordinalOf(set, p) !== undefined)
      .sort((a, b) => ordinalOf(set, a)! - ordinalOf(set, b)!)
    const byOrdinal = new Map(pods.map(p => [ordinalOf(set, p)!, p]))
    const inRange = (o: number) => o >= start && o < start + replicas
    const healthy = (p: KubeObject | undefined) =>
      !!p && !p.metadata.deletionTimestamp && p.status?.phase === 'Running' && isPodReady(p)

    // Failed pods are deleted to be recreated (stateful_set_control.go processReplica).
    for (const p of pods)
      if (isPodTerminal(p) && !p.metadata.deletionTimestamp)
        deleteIfPresent(this.ctx, podT, ns, p.metadata.name)

    // Create the missing pods of the range, in order (or all at once).
    for (let o = start; o < start + replicas; o++) {
      const p = byOrdinal.get(o)
      if (!p) {
        this.createPod(set, o, updateRevision)
        if (!parallel) break
        continue
      }
      if (!parallel && !healthy(p)) break
    }
    // Condemned pods (ordinals out of range), from the highest, one at a time unless Parallel.
    const condemned = pods.filter(p => !inRange(ordinalOf(set, p)!)).reverse()
    const unhealthyInRange = pods.some(p => inRange(ordinalOf(set, p)!) && !healthy(p))
    for (const p of condemned) {
      if (p.metadata.deletionTimestamp) {
        if (!parallel) break
        continue
      }
      if (!parallel && unhealthyInRange) break
      deleteIfPresent(this.ctx, podT, ns, p.metadata.name)
      if (!parallel) break
    }
    // RollingUpdate: the highest pod of an older revision, once every other pod is healthy.
    if ((set.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' && !condemned.length) {
      const partition = set.spec?.updateStrategy?.rollingUpdate?.partition ?? 0
      const inSet = pods.filter(p => inRange(ordinalOf(set, p)!))
      const allHealthy = inSet.length === replicas && inSet.every(healthy)
      const stale = inSet
        .filter(
          p =>
            ordinalOf(set, p)! >= start + partition && p.metadata.labels?.[REVISION_LABEL] !== updateRevision
        )
        .reverse()
      if (stale.length && allHealthy) deleteIfPresent(this.ctx, podT, ns, stale[0].metadata.name)
    }
    this.writeStatus(set, updateRevision)
  }

  private createPod(set: KubeObject, ordinal: number, revision: string): void {
    const podT = typeFromKey(this.ctx, 'pods')!
    const ns = set.metadata.namespace!
    const podName = `${set.metadata.name}-${ordinal}`
    const template = structuredClone(set.spec?.template ?? {})
    const spec = structuredClone(template.spec ?? {})
    const volumes: any[] = spec.volumes ?? []
    for (const claim of set.spec?.volumeClaimTemplates ?? []) {
      const claimName = `${claim.metadata?.name}-${podName}`
      const pvcT = typeFromKey(this.ctx, 'persistentvolumeclaims')
      if (pvcT && !this.ctx.cache.get('persistentvolumeclaims', ns, claimName))
        createIfAbsent(this.ctx, pvcT, {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: {
            name: claimName,
            namespace: ns,
            labels: { ...(set.spec?.selector?.matchLabels ?? {}) }
          },
          spec: structuredClone(claim.spec ?? {})
        } as KubeObject)
      const i = volumes.findIndex(v => v.name === claim.metadata?.name)
      const vol = { name: claim.metadata?.name, persistentVolumeClaim: { claimName } }
      if (i >= 0) volumes[i] = vol
      else volumes.push(vol)
    }
    if (volumes.length) spec.volumes = volumes
    try {
      this.ctx.store.create(podT, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: podName,
          namespace: ns,
          labels: {
            ...(template.metadata?.labels ?? {}),
            'statefulset.kubernetes.io/pod-name': podName,
            'apps.kubernetes.io/pod-index': String(ordinal),
            [REVISION_LABEL]: revision
          },
          ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
          ownerReferences: [ownerRef(set)]
        },
        spec: {
          ...spec,
          hostname: podName,
          ...(set.spec?.serviceName ? { subdomain: set.spec.serviceName } : {})
        }
      } as KubeObject)
    } catch (e) {
      if (e instanceof StoreError && e.code === 403) {
        this.ctx.events.record(set, {
          type: 'Warning',
          reason: 'FailedCreate',
          message: `create Pod ${podName} in StatefulSet ${set.metadata.name} failed error: ${e.message}`,
          component: 'statefulset-controller'
        })
        return
      }
      if (!(e instanceof StoreError && e.code === 409)) throw e
    }
  }

  private writeStatus(set: KubeObject, updateRevision: string): void {
    const t = typeFromKey(this.ctx, STS_KEY)!
    const pods = this.ctx.cache
      .list('pods', set.metadata.namespace)
      .filter(p => isControlledBy(p, set.metadata.uid) && !p.metadata.deletionTimestamp)
    const ready = pods.filter(p => isPodReady(p)).length
    const updated = pods.filter(p => p.metadata.labels?.[REVISION_LABEL] === updateRevision).length
    const currentRevision =
      updated === pods.length ? updateRevision : (set.status?.currentRevision ?? updateRevision)
    const current = pods.filter(p => p.metadata.labels?.[REVISION_LABEL] === currentRevision).length
    this.ctx.store.mutate(
      t,
      set.metadata.namespace,
      set.metadata.name,
      o => {
        o.status = {
          observedGeneration: o.metadata.generation ?? 1,
          replicas: pods.length,
          ...(ready ? { readyReplicas: ready } : {}),
          ...(current ? { currentReplicas: current } : {}),
          ...(updated ? { updatedReplicas: updated } : {}),
          currentRevision,
          updateRevision,
          collisionCount: 0,
          availableReplicas: ready
        }
      },
      { subresource: 'status' }
    )
  }
}
