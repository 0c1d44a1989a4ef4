// The resource quota controller (kubernetes/kubernetes@v1.33.2 pkg/controller/resourcequota/
// resource_quota_controller.go): a ResourceQuota's status.hard mirrors spec.hard and status.used is
// recounted (../resource-quota.ts) whenever the quota or anything in its namespace changes.
import { quotaUsage } from '../resource-quota.js'
import { sameJson } from '../store.js'
import { typeFromKey, type SimContext } from './context.js'
import type { Reconciler } from './queue.js'

const QUOTA_KEY = 'resourcequotas'

export class ResourceQuotaController implements Reconciler {
  readonly name = 'resourcequota'
  constructor(private readonly ctx: SimContext) {
    ctx.cache.onEvent(e => {
      const ns = e.object.metadata.namespace
      if (!ns) return
      for (const q of ctx.cache.list(QUOTA_KEY, ns)) ctx.queue.add(this, `${ns}/${q.metadata.name}`)
    })
    for (const q of ctx.cache.list(QUOTA_KEY))
      ctx.queue.add(this, `${q.metadata.namespace}/${q.metadata.name}`)
  }

  reconcile(key: string): void {
    const [ns, name] = key.split('/')
    const t = typeFromKey(this.ctx, QUOTA_KEY)
    const q = this.ctx.cache.get(QUOTA_KEY, ns, name)
    if (!t || !q || q.metadata.deletionTimestamp) return
    const status = { hard: { ...(q.spec?.hard ?? {}) }, used: quotaUsage(this.ctx.store, q) }
    if (sameJson(q.status, status)) return
    this.ctx.store.mutate(t, ns, name, o => (o.status = status), { subresource: 'status' })
  }
}
