// The CronJob controller (kubernetes/kubernetes@v1.33.2 pkg/controller/cronjob/cronjob_controllerv2.go,
// utils.go): at each schedule time (cron-schedule.ts; since lastScheduleTime, else creation, within
// startingDeadlineSeconds) a Job `<cronjob>-<minutes since the epoch>` from the jobTemplate, owned by
// the CronJob, annotated `batch.kubernetes.io/cronjob-scheduled-timestamp`; concurrencyPolicy Allow,
// Forbid (skip while one is active) or Replace (delete the active ones first); nothing while
// suspended; status.active, lastScheduleTime and lastSuccessfulTime; finished Jobs beyond
// successfulJobsHistoryLimit / failedJobsHistoryLimit deleted, oldest first; the events
// SuccessfulCreate, SawCompletedJob, SuccessfulDelete, MissSchedule, UnparseableSchedule.
import type { KubeObject } from '../store.js'
import { StoreError } from '../store.js'
import { fireTimes, nextFire, parseCron } from './cron-schedule.js'
import { isControlledBy, ownerRef, TK, typeFromKey, type SimContext } from './context.js'
import type { Reconciler } from './queue.js'
import { afterWall } from './wall-timer.js'

const CJ_KEY = 'cronjobs.batch'
const SCHEDULED_AT = 'batch.kubernetes.io/cronjob-scheduled-timestamp'

const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z')

function finished(job: KubeObject): 'Complete' | 'Failed' | undefined {
  for (const c of job.status?.conditions ?? [])
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') return c.type
  return undefined
}

export class CronJobController implements Reconciler {
  readonly name = 'cronjob'
  private readonly timers = new Map<string, () => void>()
  private readonly sawCompleted = new Set<string>()
  constructor(private readonly ctx: SimContext) {
    ctx.cache.onEvent((e, tk) => {
      const o = e.object
      if (tk === CJ_KEY && e.type !== 'DELETED')
        ctx.queue.add(this, `${o.metadata.namespace}/${o.metadata.name}`)
      else if (tk === TK.jobs) {
        const ref = (o.metadata.ownerReferences ?? []).find(r => r.kind === 'CronJob' && r.controller)
        if (ref) ctx.queue.add(this, `${o.metadata.namespace}/${ref.name}`)
      }
    })
    for (const cj of ctx.cache.list(CJ_KEY))
      ctx.queue.add(this, `${cj.metadata.namespace}/${cj.metadata.name}`)
  }

  reconcile(key: string): void {
    const [ns, name] = key.split('/')
    const cj = this.ctx.cache.get(CJ_KEY, ns, name)
    const cjT = typeFromKey(this.ctx, CJ_KEY)
    const jobT = typeFromKey(this.ctx, TK.jobs)
    this.timers.get(key)?.()
    this.timers.delete(key)
    if (!cj || !cjT || !jobT || cj.metadata.deletionTimestamp) return
    const spec = cj.spec ?? {}
    const jobs = this.ctx.cache.list(TK.jobs, ns).filter(j => isControlledBy(j, cj.metadata.uid))
    const now = this.ctx.wallNow()
    let lastSuccessful: string | undefined = cj.status?.lastSuccessfulTime
    for (const j of jobs) {
      const done = finished(j)
      if (!done || this.sawCompleted.has(j.metadata.uid!)) continue
      this.sawCompleted.add(j.metadata.uid!)
      this.ctx.events.record(cj, {
        type: 'Normal',
        reason: 'SawCompletedJob',
        message: `Saw completed job: ${j.metadata.name}, condition: ${done}`,
        component: 'cronjob-controller'
      })
      const at = j.status?.completionTime
      if (done === 'Complete' && at && (!lastSuccessful || at > lastSuccessful)) lastSuccessful = at
    }
    let active = jobs.filter(j => !finished(j) && !j.metadata.deletionTimestamp)
    let lastSchedule: string | undefined = cj.status?.lastScheduleTime
    let schedule
    try {
      schedule = parseCron(String(spec.schedule ?? ''), spec.timeZone)
    } catch (err) {
      this.ctx.events.record(cj, {
        type: 'Warning',
        reason: 'UnparseableSchedule',
        message: `unparseable schedule: ${JSON.stringify(spec.schedule)} : ${(err as Error).message}`,
        component: 'cronjob-controller'
      })
      return
    }
    if (!spec.suspend) {
      let earliest = Date.parse(lastSchedule ?? cj.metadata.creationTimestamp ?? new Date(now).toISOString())
      const deadline: number | undefined = spec.startingDeadlineSeconds ?? undefined
      if (deadline !== undefined) earliest = Math.max(earliest, now - deadline * 1000)
      const times = fireTimes(schedule, earliest, now)
      const scheduled = times[times.length - 1]
      const jobName = scheduled !== undefined ? `${name}-${Math.floor(scheduled / 60_000)}` : undefined
      if (scheduled !== undefined && jobName && !jobs.some(j => j.metadata.name === jobName)) {
        if (deadline !== undefined && scheduled + deadline * 1000 < now)
          this.ctx.events.record(cj, {
            type: 'Warning',
            reason: 'MissSchedule',
            message: `Missed scheduled time to start a job: ${rfc3339(scheduled)}`,
            component: 'cronjob-controller'
          })
        else if (spec.concurrencyPolicy === 'Forbid' && active.length) {
          // Skipped; tried again at the next schedule time or when the active Job ends.
        } else {
          if (spec.concurrencyPolicy === 'Replace')
            for (const j of active) {
              this.deleteJob(cj, j)
            }
          if (spec.concurrencyPolicy === 'Replace') active = []
          const created = this.createJob(cj, jobName, scheduled)
          if (created) active.push(created)
          lastSchedule = rfc3339(scheduled)
        }
      }
    }
    this.cleanup(
      cj,
      jobs.filter(j => finished(j) === 'Complete'),
      spec.successfulJobsHistoryLimit
    )
    this.cleanup(
      cj,
      jobs.filter(j => finished(j) === 'Failed'),
      spec.failedJobsHistoryLimit
    )
    this.ctx.store.mutate(
      cjT,
      ns,
      name,
      o => {
        const status: Record<string, unknown> = {}
        if (active.length)
          status.active = active.map(j => ({
            kind: 'Job',
            namespace: ns,
            name: j.metadata.name,
            uid: j.metadata.uid,
            apiVersion: 'batch/v1',
            resourceVersion: j.metadata.resourceVersion
          }))
        if (lastSchedule) status.lastScheduleTime = lastSchedule
        if (lastSuccessful) status.lastSuccessfulTime = lastSuccessful
        o.status = status
      },
      { subresource: 'status' }
    )
    const next = spec.suspend ? undefined : nextFire(schedule, now)
    if (next !== undefined)
      this.timers.set(
        key,
        afterWall(this.ctx, next, () => this.ctx.queue.add(this, key))
      )
  }

  private createJob(cj: KubeObject, name: string, scheduled: number): KubeObject | undefined {
    const jobT = typeFromKey(this.ctx, TK.jobs)!
    const tmpl = structuredClone(cj.spec?.jobTemplate ?? {})
    try {
      const job = this.ctx.store.create(jobT, {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: {
          name,
          namespace: cj.metadata.namespace,
          ...(tmpl.metadata?.labels ? { labels: tmpl.metadata.labels } : {}),
          annotations: { ...(tmpl.metadata?.annotations ?? {}), [SCHEDULED_AT]: rfc3339(scheduled) },
          ownerReferences: [ownerRef(cj)]
        },
        spec: tmpl.spec ?? {}
      } as KubeObject)
      this.ctx.events.record(cj, {
        type: 'Normal',
        reason: 'SuccessfulCreate',
        message: `Created job ${name}`,
        component: 'cronjob-controller'
      })
      return job
    } catch (e) {
      if (e instanceof StoreError && e.code === 409)
        return this.ctx.cache.get(TK.jobs, cj.metadata.namespace, name)
      if (e instanceof StoreError) {
        this.ctx.events.record(cj, {
          type: 'Warning',
          reason: 'FailedCreate',
          message: `Error creating job: ${e.message}`,
          component: 'cronjob-controller'
        })
        return undefined
      }
      throw e
    }
  }

  private deleteJob(cj: KubeObject, job: KubeObject): void {
    const jobT = typeFromKey(this.ctx, TK.jobs)!
    try {
      this.ctx.store.delete(jobT, job.metadata.namespace, job.metadata.name, {
        propagationPolicy: 'Background'
      })
      this.ctx.events.record(cj, {
        type: 'Normal',
        reason: 'SuccessfulDelete',
        message: `Deleted job ${job.metadata.name}`,
        component: 'cronjob-controller'
      })
    } catch (e) {
      if (!(e instanceof StoreError && e.code === 404)) throw e
    }
  }

  /** Deletes the oldest finished Jobs beyond the history limit. */
  private cleanup(cj: KubeObject, done: KubeObject[], limit: number | undefined): void {
    if (limit === undefined || limit === null) return
    const live = done
      .filter(j => !j.metadata.deletionTimestamp)
      .sort((a, b) =>
        String(a.status?.startTime ?? a.metadata.creationTimestamp).localeCompare(
          String(b.status?.startTime ?? b.metadata.creationTimestamp)
        )
      )
    for (const j of live.slice(0, Math.max(0, live.length - limit))) this.deleteJob(cj, j)
  }
}
