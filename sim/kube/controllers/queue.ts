// A coalescing work queue: controllers enqueue keys on store events; keys are reconciled in
// batches after a short real-time window, so an event storm (1000 nodes joining, thousands of
// pod status writes) costs one reconcile per key per batch instead of one per event.
export interface Reconciler {
  readonly name: string
  reconcile(key: string): void
}

export class WorkQueue {
  private readonly pending = new Map<Reconciler, Set<string>>()
  private timer: NodeJS.Timeout | undefined
  private closed = false
  private running = false
  constructor(
    private readonly windowMs = 2,
    private readonly onError: (controller: string, key: string, err: unknown) => void = () => {}
  ) {}

  add(r: Reconciler, key: string): void {
    if (this.closed) return
    let s = this.pending.get(r)
    if (!s) this.pending.set(r, (s = new Set()))
    s.add(key)
    if (!this.timer && !this.running) this.timer = setTimeout(() => this.flush(), this.windowMs)
  }

  /** Runs everything queued now (also used by tests through settle()). */
  flush(): void {
    this.timer = undefined
    if (this.closed) return
    this.running = true
    try {
      for (let round = 0; round < 50 && this.pending.size; round++) {
        const batch = [...this.pending.entries()]
        this.pending.clear()
        for (const [r, keys] of batch) {
          for (const k of keys) {
            try {
              r.reconcile(k)
            } catch (err) {
              this.onError(r.name, k, err)
            }
          }
        }
      }
    } finally {
      this.running = false
    }
    if (this.pending.size && !this.timer && !this.closed)
      this.timer = setTimeout(() => this.flush(), this.windowMs)
  }

  get idle(): boolean {
    return this.pending.size === 0
  }

  close(): void {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    this.pending.clear()
  }
}
