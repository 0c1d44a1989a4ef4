// The seams of the simulated world: the scenario both halves read, the simulated clock, the
// request recorder, and the interface through which the Azure half tells the Kubernetes half
// that agent pools (and so nodes) appear or go away. Each half is built against these only.

/** A node pool as the Kubernetes half needs it to create nodes. */
export interface SimPool {
  name: string
  vmSize: string
  count: number
  /** `Ubuntu`, `Ubuntu2204`, `Ubuntu2404` (AKS semantics: `Ubuntu` is 24.04 from Kubernetes 1.35). */
  osSku: string
  mode: 'System' | 'User'
  kubernetesVersion: string
  labels?: Record<string, string>
  taints?: string[]
}

/** Implemented by the Kubernetes half; called by the Azure half. */
export interface ClusterBackend {
  /** Nodes for the pool join the cluster (over `nodes.joinSpread` simulated time when set). */
  addPool(pool: SimPool): void
  removePool(name: string): void
  setPoolCount(name: string, count: number): void
  /** A kubeconfig (YAML text) for the simulated API server. */
  kubeconfig(kind: 'user' | 'admin' | 'aad'): string
  /**
   * The URL the API server serves on, as its kubeconfigs name it: the managed cluster's `fqdn` is
   * its address. Absent (a test's stand-in for the Kubernetes half): an AKS-style name nothing serves.
   */
  apiServerUrl?(): string | undefined
}

/** One recorded request to either half. */
export interface SimRequestRecord {
  service: 'arm' | 'entra' | 'oidc' | 'kube'
  method: string
  path: string
  status: number
  mutating: boolean
  /** For kube: the resource plural (e.g. `daemonsets`). */
  resource?: string
}

export class SimRecorder {
  readonly records: SimRequestRecord[] = []
  record(r: SimRequestRecord): void {
    this.records.push(r)
  }
  reset(): void {
    this.records.length = 0
  }
  counts(): {
    total: number
    mutating: number
    arm: { total: number; mutating: number }
    kube: { total: number; mutating: number; mutatingByResource: Record<string, number> }
  } {
    const arm = this.records.filter(r => r.service === 'arm')
    const kube = this.records.filter(r => r.service === 'kube')
    const mutatingByResource: Record<string, number> = {}
    for (const r of kube)
      if (r.mutating && r.resource) mutatingByResource[r.resource] = (mutatingByResource[r.resource] ?? 0) + 1
    return {
      total: this.records.length,
      mutating: this.records.filter(r => r.mutating).length,
      arm: { total: arm.length, mutating: arm.filter(r => r.mutating).length },
      kube: { total: kube.length, mutating: kube.filter(r => r.mutating).length, mutatingByResource }
    }
  }
}

/**
 * Simulated time: every simulated wait is scaled by `timeScale` in real time. A test can also jump
 * it forward (`advance`): the timers that fall due in the skipped span run at once, in the order
 * they were due, before `advance` returns; later timers keep their simulated deadlines. Tests
 * jump instead of sleeping out a deadline, so nothing that must happen before a deadline depends
 * on how fast the machine runs.
 */
export class SimClock {
  private readonly startReal = Date.now()
  private skippedMs = 0
  /** While `advance` runs a timer: the instant it was due. */
  private frozenAt: number | undefined
  /** The simulated instant the running `advance` started from. */
  private advanceFrom = 0
  private readonly pending = new Set<Timer>()
  constructor(readonly timeScale: number) {}
  /** Simulated milliseconds since the world started. */
  now(): number {
    return this.frozenAt ?? (Date.now() - this.startReal) / this.timeScale + this.skippedMs
  }
  /**
   * The world's wall clock (ms since the epoch): real time, plus the spans `advance` skipped (and,
   * while `advance` runs a timer, the part of the span already skipped). Every timestamp the world
   * writes comes from it, so clients that compare timestamps with their own clock (object ages in
   * kubectl, lease expiry) see consistent times; simulated durations are shorter than they say.
   */
  wallNow(): number {
    const skipping = this.frozenAt !== undefined ? this.frozenAt - this.advanceFrom : 0
    return Date.now() + this.skippedMs + Math.max(0, skipping)
  }
  /** Real milliseconds a simulated duration takes. */
  real(simMs: number): number {
    return Math.max(0, simMs * this.timeScale)
  }
  sleep(simMs: number): Promise<void> {
    return new Promise(resolve => this.after(simMs, resolve))
  }
  /** setTimeout in simulated time; returns a cancel function. */
  after(simMs: number, fn: () => void): () => void {
    const timer: Timer = { due: this.now() + simMs, fn, handle: undefined }
    this.pending.add(timer)
    this.arm(timer)
    return () => this.cancel(timer)
  }
  /**
   * Jumps simulated time forward by `simMs` (tests only), running every timer that falls due in the
   * span at its own instant (now() reads its due time while it runs), including ones those timers
   * set: a periodic timer runs once per period of the span.
   */
  advance(simMs: number): void {
    this.advanceFrom = this.now()
    const target = this.advanceFrom + Math.max(0, simMs)
    let runsAtInstant = 0
    try {
      for (;;) {
        let next: Timer | undefined
        for (const t of this.pending) if (t.due <= target && (!next || t.due < next.due)) next = t
        if (!next) break
        const instant = Math.max(next.due, this.frozenAt ?? next.due)
        runsAtInstant = instant === this.frozenAt ? runsAtInstant + 1 : 1
        if (runsAtInstant > MAX_RUNS_AT_ONE_INSTANT)
          throw new Error(
            'SimClock.advance: a timer keeps re-arming itself with no delay; time would never move on'
          )
        this.frozenAt = instant
        this.cancel(next)
        next.fn()
      }
    } finally {
      this.frozenAt = undefined
      this.skippedMs += Math.max(0, target - this.now())
      for (const timer of this.pending) {
        clearTimeout(timer.handle)
        this.arm(timer)
      }
    }
  }
  private cancel(timer: Timer): void {
    clearTimeout(timer.handle)
    this.pending.delete(timer)
  }
  private arm(timer: Timer): void {
    const wait = this.real(timer.due - this.now())
    // setTimeout fires at once past ~24.8 days; a longer wait is taken in steps.
    timer.handle =
      wait > MAX_TIMEOUT_MS
        ? setTimeout(() => this.arm(timer), MAX_TIMEOUT_MS)
        : setTimeout(() => {
            this.pending.delete(timer)
            timer.fn()
          }, wait)
    timer.handle.unref?.()
  }
}

const MAX_TIMEOUT_MS = 2 ** 31 - 1
const MAX_RUNS_AT_ONE_INSTANT = 10_000

interface Timer {
  /** Simulated instant it fires at. */
  due: number
  fn: () => void
  handle: NodeJS.Timeout | undefined
}
