// core/v1 Event objects, as kubelets, schedulers and controllers write them: one object per
// (involved object, reason, message), its count and lastTimestamp bumped on repetition.
import type { KubeObject, ObjectStore } from '../store.js'
import { StoreError } from '../store.js'

export interface EventInput {
  type?: 'Normal' | 'Warning'
  reason: string
  message: string
  component?: string
  host?: string
  fieldPath?: string
}

export class EventRecorder {
  private readonly seen = new Map<string, { ns: string; name: string }>()
  private seq = 0
  constructor(
    private readonly store: ObjectStore,
    private readonly isoNow: () => string,
    private readonly wallNow: () => number
  ) {}

  record(obj: KubeObject, e: EventInput): void {
    const t = this.store.type('', 'events')
    if (!t) return
    const ns = obj.metadata.namespace ?? 'default'
    const dedupe = `${obj.metadata.uid}|${e.reason}|${e.fieldPath ?? ''}|${e.message}`
    const now = this.isoNow()
    const prev = this.seen.get(dedupe)
    if (prev) {
      const updated = this.store.mutate(t, prev.ns, prev.name, ev => {
        ev.count = (ev.count ?? 1) + 1
        ev.lastTimestamp = now
      })
      if (updated) return
    }
    const name = `${obj.metadata.name}.${(BigInt(Math.floor(this.wallNow())) * 1_000_000n + BigInt(this.seq++)).toString(16)}`
    try {
      this.store.create(t, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace: ns },
        involvedObject: {
          apiVersion: obj.apiVersion,
          kind: obj.kind,
          name: obj.metadata.name,
          namespace: obj.metadata.namespace,
          uid: obj.metadata.uid,
          resourceVersion: obj.metadata.resourceVersion,
          ...(e.fieldPath ? { fieldPath: e.fieldPath } : {})
        },
        reason: e.reason,
        message: e.message,
        type: e.type ?? 'Normal',
        source: { component: e.component ?? 'kubelet', ...(e.host ? { host: e.host } : {}) },
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
        reportingComponent: e.component ?? 'kubelet',
        reportingInstance: e.host ?? ''
      })
      this.seen.set(dedupe, { ns, name })
    } catch (err) {
      if (!(err instanceof StoreError)) throw err
    }
  }
}
