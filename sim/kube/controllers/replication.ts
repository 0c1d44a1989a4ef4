// Deployment → ReplicaSet → Pod, and Job → Pod: the controllers that keep replica counts, roll a
// Deployment to a new ReplicaSet on template change, and write the status fields and conditions
// that `kubectl rollout status` / `kubectl wait` read. Pods are bound by the scheduler.
import type { KubeObject } from '../store.js'
import { StoreError } from '../store.js'
import {
  deleteIfPresent,
  isControlledBy,
  isoNow,
  isPodActive,
  isPodReady,
  isPodTerminal,
  ownerRef,
  randomSuffix,
  TK,
  typeFromKey,
  type SimContext
} from './context.js'
import { templateHash } from './daemonset.js'
import { deepEqual } from '../apiserver/fieldpaths.js'
import type { Reconciler } from './queue.js'

function createPodFrom(
  ctx: SimContext,
  owner: KubeObject,
  template: any,
  extraLabels: Record<string, string>,
  restartPolicy?: string
): void {
  const podT = typeFromKey(ctx, TK.pods)!
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      ctx.store.create(podT, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `${owner.metadata.name}-${randomSuffix()}`,
          generateName: `${owner.metadata.name}-`,
          namespace: owner.metadata.namespace,
          labels: { ...(template?.metadata?.labels ?? {}), ...extraLabels },
          ...(template?.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
          ownerReferences: [ownerRef(owner)]
        },
        spec: {
          restartPolicy: restartPolicy ?? 'Always',
          schedulerName: 'default-scheduler',
          dnsPolicy: 'ClusterFirst',
          terminationGracePeriodSeconds: 30,
          ...structuredClone(template?.spec ?? {})
        },
        status: { phase: 'Pending' }
      })
      return
    } catch (e) {
      if (e instanceof StoreError && e.code === 403) {
        // Refused by admission (e.g. an unknown priorityClassName), as the real controllers report it.
        ctx.events.record(owner, {
          type: 'Warning',
          reason: 'FailedCreate',
          message: `Error creating: ${e.message}`,
          component: owner.kind === 'Job' ? 'job-controller' : 'replicaset-controller'
        })
        return
      }
      if (!(e instanceof StoreError && e.code === 409)) throw e
    }
  }
}

const REVISION = 'deployment.kubernetes.io/revision'
const HASH = 'pod-template-hash'

function revisionOf(rs: KubeObject): number {
  return Number(rs.metadata.annotations?.[REVISION] ?? 0) || 0
}

/** The Deployment's maxSurge resolved against `replicas` (a percentage rounds up); 0 for Recreate. */
function maxSurge(d: KubeObject, replicas: number): number {
  if (d.spec?.strategy?.type === 'Recreate') return 0
  const v = d.spec?.strategy?.rollingUpdate?.maxSurge ?? '25%'
  return typeof v === 'string' && v.endsWith('%')
    ? Math.ceil((replicas * Number(v.slice(0, -1))) / 100)
    : Number(v) || 0
}

/** Drops nulls and empty lists: Go's semantic equality takes them as the zero values they decode to. */
function zeroless(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(zeroless)
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([, x]) => x !== null && x !== undefined && !(Array.isArray(x) && !x.length))
        .map(([k, x]) => [k, zeroless(x)])
    )
  return v
}

/**
 * Pod templates equal but for the pod-template-hash label (deploymentutil.EqualIgnoreHash, with
 * apiequality.Semantic: `creationTimestamp: null` as kubectl's rollback writes it equals none).
 */
function equalIgnoreHash(a: any, b: any): boolean {
  const strip = (t: any) => {
    const c = structuredClone(t ?? {})
    if (c.metadata?.labels) delete c.metadata.labels[HASH]
    return zeroless(c)
  }
  return deepEqual(strip(a), strip(b))
}

function ownerKey(o: KubeObject, kind: string): string | undefined {
  const ref = (o.metadata.ownerReferences ?? []).find(r => r.kind === kind && r.controller)
  return ref ? `${o.metadata.namespace}/${ref.name}` : undefined
}

export class ReplicaSetController implements Reconciler {
  readonly name = 'replicaset'
  constructor(private readonly ctx: SimContext) {
    ctx.cache.onEvent((e, tk) => {
      if (tk === TK.replicasets && e.type !== 'DELETED')
        ctx.queue.add(this, `${e.object.metadata.namespace}/${e.object.metadata.name}`)
      else if (tk === TK.pods) {
        const k = ownerKey(e.object, 'ReplicaSet')
        if (k) ctx.queue.add(this, k)
      }
    })
    for (const rs of ctx.cache.list(TK.replicasets))
      ctx.queue.add(this, `${rs.metadata.namespace}/${rs.metadata.name}`)
  }

  reconcile(key: string): void {
    const [ns, name] = key.split('/')
    const rs = this.ctx.cache.get(TK.replicasets, ns, name)
    const podT = typeFromKey(this.ctx, TK.pods)
    if (!rs || !podT) return
    const want = rs.spec?.replicas ?? 1
    const pods = this.ctx.cache
      .ownedPods(rs.metadata.uid!)
      .filter(p => isControlledBy(p, rs.metadata.uid) && isPodActive(p))
      .sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''))
    const hash = rs.metadata.labels?.['pod-template-hash']
    for (let i = pods.length; i < want; i++)
      createPodFrom(this.ctx, rs, rs.spec?.template, hash ? { 'pod-template-hash': hash } : {})
    // Scale down: not-ready pods first, then the newest.
    const excess = pods.length - want
    if (excess > 0) {
      const order = [...pods.filter(p => !isPodReady(p)).reverse(), ...pods.filter(isPodReady).reverse()]
      for (const p of order.slice(0, excess)) deleteIfPresent(this.ctx, podT, ns, p.metadata.name)
    }
    const live = this.ctx.cache
      .ownedPods(rs.metadata.uid!)
      .filter(p => isControlledBy(p, rs.metadata.uid) && isPodActive(p))
    const ready = live.filter(isPodReady).length
    this.ctx.store.mutate(
      typeFromKey(this.ctx, TK.replicasets)!,
      ns,
      name,
      o => {
        o.status = {
          replicas: live.length,
          fullyLabeledReplicas: live.length,
          readyReplicas: ready,
          availableReplicas: ready,
          observedGeneration: rs.metadata.generation ?? 1
        }
        if (!ready) {
          delete o.status.readyReplicas
          delete o.status.availableReplicas
        }
      },
      { subresource: 'status' }
    )
  }
}

export class DeploymentController implements Reconciler {
  readonly name = 'deployment'
  constructor(private readonly ctx: SimContext) {
    ctx.cache.onEvent((e, tk) => {
      if (tk === TK.deployments && e.type !== 'DELETED')
        ctx.queue.add(this, `${e.object.metadata.namespace}/${e.object.metadata.name}`)
      else if (tk === TK.replicasets) {
        const k = ownerKey(e.object, 'Deployment')
        if (k) ctx.queue.add(this, k)
      }
    })
    for (const d of ctx.cache.list(TK.deployments))
      ctx.queue.add(this, `${d.metadata.namespace}/${d.metadata.name}`)
  }

  reconcile(key: string): void {
    const [ns, name] = key.split('/')
    const d = this.ctx.cache.get(TK.deployments, ns, name)
    const rsT = typeFromKey(this.ctx, TK.replicasets)
    if (!d || !rsT || d.metadata.deletionTimestamp) return
    const want = d.spec?.replicas ?? 1
    const owned = this.ctx.cache
      .dependentsOf(d.metadata.uid!)
      .filter(([tk, o]) => tk === TK.replicasets && isControlledBy(o, d.metadata.uid))
      .map(([, o]) => o)
    const maxRevision = Math.max(0, ...owned.map(revisionOf))
    // The ReplicaSet whose template is the Deployment's but for its hash label (EqualIgnoreHash):
    // after `kubectl rollout undo` an old one, made the newest revision again.
    let current = owned.find(rs => equalIgnoreHash(rs.spec?.template, d.spec?.template))
    if (d.spec?.paused) {
      // A paused Deployment is only scaled (deployment_controller.go syncDeployment → sync): no new
      // ReplicaSet for a changed template, no old one scaled down; the newest one takes the count.
      const newest =
        current ??
        owned.reduce<KubeObject | undefined>(
          (a, rs) => (!a || revisionOf(rs) > revisionOf(a) ? rs : a),
          undefined
        )
      if (newest && (newest.spec?.replicas ?? 1) !== want)
        this.ctx.store.mutate(rsT, ns, newest.metadata.name, o => {
          o.spec.replicas = want
        })
      this.writeStatus(d, current && this.ctx.cache.get(TK.replicasets, ns, current.metadata.name))
      return
    }
    if (!current) current = this.createReplicaSet(d, want, maxRevision + 1)
    else {
      const revised = revisionOf(current) < maxRevision ? String(maxRevision + 1) : undefined
      if (revised || (current.spec?.replicas ?? 1) !== want)
        this.ctx.store.mutate(rsT, ns, current.metadata.name, o => {
          o.spec.replicas = want
          if (revised) o.metadata.annotations = { ...(o.metadata.annotations ?? {}), [REVISION]: revised }
        })
      current = this.ctx.cache.get(TK.replicasets, ns, current.metadata.name) ?? current
    }
    this.scaleDownOld(d, owned, current)
    this.writeStatus(d, current)
  }

  private createReplicaSet(d: KubeObject, want: number, revision: number): KubeObject | undefined {
    const rsT = typeFromKey(this.ctx, TK.replicasets)!
    const { name, namespace: ns } = d.metadata
    const hash = templateHash(d.spec?.template)
    const tmpl = structuredClone(d.spec?.template ?? {})
    tmpl.metadata = { ...(tmpl.metadata ?? {}), labels: { ...(tmpl.metadata?.labels ?? {}), [HASH]: hash } }
    const selector = structuredClone(d.spec?.selector ?? {})
    selector.matchLabels = { ...(selector.matchLabels ?? {}), [HASH]: hash }
    try {
      return this.ctx.store.create(rsT, {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          name: `${name}-${hash}`,
          namespace: ns,
          labels: { ...(d.spec?.template?.metadata?.labels ?? {}), [HASH]: hash },
          annotations: {
            'deployment.kubernetes.io/desired-replicas': String(want),
            'deployment.kubernetes.io/max-replicas': String(want + maxSurge(d, want)),
            [REVISION]: String(revision)
          },
          ownerReferences: [ownerRef(d)]
        },
        spec: { replicas: want, selector, template: tmpl }
      })
    } catch (e) {
      if (!(e instanceof StoreError && e.code === 409)) throw e
      return this.ctx.cache.get(TK.replicasets, ns, `${name}-${hash}`)
    }
  }

  /** Old ReplicaSets scale to zero once the new one is available (or at once for Recreate). */
  private scaleDownOld(d: KubeObject, owned: KubeObject[], current: KubeObject | undefined): void {
    const rsT = typeFromKey(this.ctx, TK.replicasets)!
    const want = d.spec?.replicas ?? 1
    const curReady = current?.status?.availableReplicas ?? 0
    for (const rs of owned) {
      if (rs.metadata.name === current?.metadata.name || (rs.spec?.replicas ?? 0) === 0) continue
      if (d.spec?.strategy?.type === 'Recreate' || curReady >= want)
        this.ctx.store.mutate(rsT, d.metadata.namespace, rs.metadata.name, o => {
          o.spec.replicas = 0
        })
    }
  }

  private writeStatus(d: KubeObject, current: KubeObject | undefined): void {
    const want = d.spec?.replicas ?? 1
    const all = this.ctx.cache
      .dependentsOf(d.metadata.uid!)
      .filter(([tk]) => tk === TK.replicasets)
      .map(([, o]) => o)
    const sum = (f: (rs: KubeObject) => number) => all.reduce((a, rs) => a + f(rs), 0)
    const replicas = sum(rs => rs.status?.replicas ?? 0)
    const available = sum(rs => rs.status?.availableReplicas ?? 0)
    const ready = sum(rs => rs.status?.readyReplicas ?? 0)
    const updated = current?.status?.replicas ?? 0
    const now = isoNow(this.ctx)
    const prevConds: any[] = d.status?.conditions ?? []
    const cond = (type: string, status: string, reason: string, message: string) => {
      const prev = prevConds.find(c => c.type === type)
      const same = prev && prev.status === status
      return {
        type,
        status,
        lastUpdateTime: same && prev.reason === reason ? prev.lastUpdateTime : now,
        lastTransitionTime: same ? prev.lastTransitionTime : now,
        reason,
        message
      }
    }
    const isAvailable = available >= want
    const progressed = updated === want && (current?.status?.availableReplicas ?? 0) >= want
    const status: any = {
      observedGeneration: d.metadata.generation ?? 1,
      replicas,
      updatedReplicas: updated,
      readyReplicas: ready,
      availableReplicas: available,
      conditions: [
        cond(
          'Available',
          isAvailable ? 'True' : 'False',
          isAvailable ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
          isAvailable
            ? 'Deployment has minimum availability.'
            : 'Deployment does not have minimum availability.'
        ),
        d.spec?.paused
          ? cond('Progressing', 'Unknown', 'DeploymentPaused', 'Deployment is paused')
          : prevConds.some(c => c.reason === 'DeploymentPaused')
            ? cond('Progressing', 'Unknown', 'DeploymentResumed', 'Deployment is resumed')
            : cond(
                'Progressing',
                'True',
                progressed ? 'NewReplicaSetAvailable' : 'ReplicaSetUpdated',
                progressed
                  ? `ReplicaSet "${current?.metadata.name}" has successfully progressed.`
                  : `ReplicaSet "${current?.metadata.name}" is progressing.`
              )
      ]
    }
    if (replicas - available > 0) status.unavailableReplicas = replicas - available
    for (const k of ['readyReplicas', 'availableReplicas', 'updatedReplicas', 'replicas'])
      if (!status[k]) delete status[k]
    const revision = current?.metadata.annotations?.[REVISION]
    this.ctx.store.mutate(
      typeFromKey(this.ctx, TK.deployments)!,
      d.metadata.namespace,
      d.metadata.name,
      o => {
        o.status = status
        // The controller records the revision on the Deployment too, through the status write.
        if (revision) o.metadata.annotations = { ...(o.metadata.annotations ?? {}), [REVISION]: revision }
      },
      { subresource: 'status' }
    )
  }
}

export class JobController implements Reconciler {
  readonly name = 'job'
  constructor(private readonly ctx: SimContext) {
    ctx.cache.onEvent((e, tk) => {
      if (tk === TK.jobs && e.type !== 'DELETED')
        ctx.queue.add(this, `${e.object.metadata.namespace}/${e.object.metadata.name}`)
      else if (tk === TK.pods) {
        const k = ownerKey(e.object, 'Job')
        if (k) ctx.queue.add(this, k)
      }
    })
    for (const j of ctx.cache.list(TK.jobs)) ctx.queue.add(this, `${j.metadata.namespace}/${j.metadata.name}`)
  }

  reconcile(key: string): void {
    const [ns, name] = key.split('/')
    const job = this.ctx.cache.get(TK.jobs, ns, name)
    const jobT = typeFromKey(this.ctx, TK.jobs)
    if (!job || !jobT) return
    const completions = job.spec?.completions ?? 1
    const parallelism = job.spec?.parallelism ?? 1
    const backoffLimit = job.spec?.backoffLimit ?? 6
    const pods = this.ctx.cache.ownedPods(job.metadata.uid!).filter(p => isControlledBy(p, job.metadata.uid))
    const succeeded = pods.filter(p => p.status?.phase === 'Succeeded').length
    const failed = pods.filter(p => p.status?.phase === 'Failed').length
    const active = pods.filter(isPodActive).length
    const done = (job.status?.conditions ?? []).some(
      (c: any) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True'
    )
    const now = isoNow(this.ctx)
    const uid = job.metadata.uid!
    const labels = {
      'batch.kubernetes.io/controller-uid': uid,
      'controller-uid': uid,
      'batch.kubernetes.io/job-name': name,
      'job-name': name
    }
    if (!done && failed <= backoffLimit) {
      const toStart = Math.min(parallelism - active, completions - succeeded - active)
      for (let i = 0; i < toStart; i++)
        createPodFrom(
          this.ctx,
          job,
          job.spec?.template,
          labels,
          job.spec?.template?.spec?.restartPolicy ?? 'Never'
        )
    }
    const conditions: any[] = [...(job.status?.conditions ?? [])]
    let completionTime = job.status?.completionTime
    if (!done && succeeded >= completions) {
      conditions.push({
        type: 'SuccessCriteriaMet',
        status: 'True',
        lastProbeTime: now,
        lastTransitionTime: now,
        reason: 'CompletionsReached',
        message: 'Reached expected number of succeeded pods'
      })
      conditions.push({
        type: 'Complete',
        status: 'True',
        lastProbeTime: now,
        lastTransitionTime: now,
        reason: 'CompletionsReached',
        message: 'Reached expected number of succeeded pods'
      })
      completionTime = now
    } else if (!done && failed > backoffLimit) {
      conditions.push({
        type: 'FailureTarget',
        status: 'True',
        lastProbeTime: now,
        lastTransitionTime: now,
        reason: 'BackoffLimitExceeded',
        message: 'Job has reached the specified backoff limit'
      })
      conditions.push({
        type: 'Failed',
        status: 'True',
        lastProbeTime: now,
        lastTransitionTime: now,
        reason: 'BackoffLimitExceeded',
        message: 'Job has reached the specified backoff limit'
      })
    }
    const live = this.ctx.cache.ownedPods(uid).filter(p => isControlledBy(p, uid))
    const status: any = {
      startTime: job.status?.startTime ?? now,
      active: live.filter(isPodActive).length,
      ready: live.filter(p => isPodActive(p) && isPodReady(p)).length,
      succeeded,
      failed,
      terminating: live.filter(p => p.metadata.deletionTimestamp && !isPodTerminal(p)).length,
      uncountedTerminatedPods: {},
      ...(conditions.length ? { conditions } : {}),
      ...(completionTime ? { completionTime } : {})
    }
    for (const k of ['active', 'succeeded', 'failed']) if (!status[k]) delete status[k]
    this.ctx.store.mutate(
      jobT,
      ns,
      name,
      o => {
        o.status = status
      },
      { subresource: 'status' }
    )
  }
}
