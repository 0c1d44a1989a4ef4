// Long-running operations behind `Azure-AsyncOperation` / `Location`. An operation completes
// either at its N-th status poll (`polls`; 0 = the first poll already sees the end) or, when a
// simulated `durationMs` is set, once that much simulated time has passed (checked on every ARM
// request and by a timer, so nodes appear even if nobody polls). A client that watches the
// resource (GET pool/cluster) instead of the status URL, e.g. a re-run finding a pool still
// Creating, sees a poll-counted operation end once `polls` × the 10 s poll hint of simulated
// time has passed. A time-based operation may carry milestones that happen while it runs (the
// pool's VMs registering as nodes before ARM reports Succeeded). Completion runs the owner's
// callback exactly once. A DELETE preempts an operation still in progress, as AKS does: it ends
// Failed with AKSOperationPreemptedByDelete and its completion callback never runs. Status
// resources look like ARM's: `{id, name, status: InProgress|Succeeded|Failed, startTime, endTime?, error?}`.
//
// Retry-After: whole REAL seconds of a simulated 10 s poll hint, at least 1 (the header's
// granularity; 0 would read as "no hint"), so clients that honour it, as @azure/core-lro and the
// action do, poll once a second at small time scales and every 10 s at timeScale 1.
import { randomUUID } from 'node:crypto'
import type { SimTime } from '../sim-time.js'

export type OperationStatus = 'InProgress' | 'Succeeded' | 'Failed' | 'Canceled'

export interface OperationSpec {
  /** Status polls until done (ignored when durationMs is set). */
  polls: number
  durationMs?: number
  result: 'Succeeded' | 'Failed'
  error?: { code: string; message: string }
  /** Things that happen while the operation runs (time-based operations only), at simulated
   *  offsets from its start, each exactly once and always before onDone. */
  milestones?: Array<{ atMs: number; run(): void }>
  onDone(status: 'Succeeded' | 'Failed'): void
}

export interface Operation {
  id: string
  status: OperationStatus
  startSimMs: number
  startTime: string
  endTime?: string
  pollCount: number
  spec: OperationSpec
  /** Set by finishNow: the operation ends at the next check whatever its timing. */
  finishRequested?: boolean
}

export const POLL_HINT_SIM_MS = 10_000

export class Operations {
  private readonly ops = new Map<string, Operation>()
  private readonly cancels: Array<() => void> = []

  constructor(private readonly time: SimTime) {}

  start(spec: OperationSpec): Operation {
    const op: Operation = {
      id: randomUUID(),
      status: 'InProgress',
      startSimMs: this.time.elapsedMs(),
      startTime: new Date(this.time.nowMs()).toISOString(),
      pollCount: 0,
      spec
    }
    this.ops.set(op.id, op)
    if (spec.durationMs !== undefined) {
      for (const m of spec.milestones ?? [])
        this.cancels.push(this.time.clock.after(m.atMs, () => this.reach(op, m)))
      this.cancels.push(this.time.clock.after(spec.durationMs, () => this.settle(op)))
    }
    return op
  }

  get(id: string): Operation | undefined {
    const op = this.ops.get(id.toLowerCase())
    if (op) this.settle(op)
    return op
  }

  /** A status poll: counts towards `polls`, then reports the (possibly new) state. */
  poll(id: string): Operation | undefined {
    const op = this.ops.get(id.toLowerCase())
    if (!op) return undefined
    if (op.status === 'InProgress') op.pollCount++
    this.settle(op)
    return op
  }

  /** A GET of the operation's resource: ends a poll-counted operation after polls × the poll hint. */
  observe(op: Operation | undefined): void {
    if (!op || op.status !== 'InProgress') return
    if (
      op.spec.durationMs === undefined &&
      this.time.elapsedMs() - op.startSimMs >= op.spec.polls * POLL_HINT_SIM_MS
    ) {
      op.pollCount = Math.max(op.pollCount, op.spec.polls)
    }
    this.settle(op)
  }

  /** Completes every time-based operation whose duration has passed. */
  settleAll(): void {
    for (const op of this.ops.values()) this.settle(op)
  }

  /**
   * Ends an operation still in progress now, with its scenario result, its milestones first (a
   * test's handle: "the pool finished provisioning at this point of the run").
   */
  finishNow(op: Operation | undefined): void {
    if (!op || op.status !== 'InProgress') return
    op.finishRequested = true
    this.settle(op)
  }

  /** Ends an operation still in progress as AKS does when a DELETE arrives: Failed, preempted. */
  preemptByDelete(op: Operation | undefined): void {
    if (!op || op.status !== 'InProgress') return
    op.status = 'Failed'
    op.endTime = new Date(this.time.nowMs()).toISOString()
    op.spec = {
      ...op.spec,
      error: {
        code: 'AKSOperationPreemptedByDelete',
        message: 'This operation has been preempted by Deleting operation.'
      }
    }
  }

  retryAfterSeconds(): string {
    return String(Math.max(1, this.time.realSeconds(POLL_HINT_SIM_MS)))
  }

  close(): void {
    for (const c of this.cancels) c()
  }

  private settle(op: Operation): void {
    if (op.status !== 'InProgress') return
    const { spec } = op
    const done =
      op.finishRequested ||
      (spec.durationMs !== undefined
        ? this.time.elapsedMs() - op.startSimMs >= spec.durationMs
        : op.pollCount >= spec.polls)
    if (!done) return
    for (const m of spec.milestones ?? []) this.reach(op, m)
    op.status = spec.result
    op.endTime = new Date(this.time.nowMs()).toISOString()
    spec.onDone(spec.result)
  }

  private readonly reached = new WeakSet<object>()

  /** Runs a milestone once, while its operation is still in progress. */
  private reach(op: Operation, m: { run(): void }): void {
    if (op.status !== 'InProgress' || this.reached.has(m)) return
    this.reached.add(m)
    m.run()
  }

  /** The ARM status resource body. */
  statusBody(op: Operation, resourceId: string): Record<string, unknown> {
    const body: Record<string, unknown> = {
      id: resourceId,
      name: op.id,
      status: op.status,
      startTime: op.startTime
    }
    if (op.endTime) body.endTime = op.endTime
    if (op.status === 'Failed')
      body.error = op.spec.error ?? { code: 'InternalOperationError', message: 'The operation failed.' }
    return body
  }
}

/** Where a client polls an operation: `.../locations/{loc}/operations/{id}` (status) and `.../operationresults/{id}`. */
export function operationUrls(
  base: string,
  subscriptionId: string,
  location: string,
  op: Operation,
  apiVersion: string
): { asyncOperation: string; location: string; statusResourceId: string } {
  const prefix = `/subscriptions/${subscriptionId}/providers/Microsoft.ContainerService/locations/${location}`
  return {
    statusResourceId: `${prefix}/operations/${op.id}`,
    asyncOperation: `${base}${prefix}/operations/${op.id}?api-version=${apiVersion}`,
    location: `${base}${prefix}/operationresults/${op.id}?api-version=${apiVersion}`
  }
}
