// The event history one resource's watches resume from, as kube-apiserver's watch cache keeps it
// (kubernetes/kubernetes@v1.33.2 staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go):
// a window of 100 events that doubles (up to 102400) while all it holds is younger than 75 s and
// halves when its newest quarter is older; the oldest event leaves when it is full. A watch from a
// version before the window's start is refused (`too old resource version: N (M)`, 410 Expired).
import type { WatchEvent } from './objects.js'

const EVENT_FRESH_MS = 75_000
const LOWER_BOUND = 100
const UPPER_BOUND = 100 * 1024

export interface CachedEvent {
  rv: number
  /** When it was recorded, on the world's clock (ms). */
  at: number
  event: WatchEvent
  /** The object as it was before this event (undefined for a creation). */
  prev?: WatchEvent['object']
}

export class WatchCache {
  private events: CachedEvent[] = []
  private capacity = LOWER_BOUND
  /** Whether an event has left the window since it started (then the oldest kept event bounds it). */
  private removed = false
  /** The resourceVersion the cache started at (its initial list). */
  constructor(private readonly listRv: number) {}

  record(e: CachedEvent): void {
    this.resize(e.at)
    if (this.events.length >= this.capacity) {
      this.events.shift()
      this.removed = true
    }
    this.events.push(e)
  }

  private resize(now: number): void {
    const full = this.events.length >= this.capacity
    if (!full) return
    if (now - this.events[0].at < EVENT_FRESH_MS) {
      this.capacity = Math.min(this.capacity * 2, UPPER_BOUND)
      return
    }
    const quarter = this.events[this.events.length - Math.floor(this.capacity / 4)]
    if (quarter && now - quarter.at > EVENT_FRESH_MS) {
      const capacity = Math.max(Math.floor(this.capacity / 2), LOWER_BOUND)
      // As upstream's doCacheResizeLocked: the window shrinks from its old end.
      if (capacity < this.capacity) this.events = this.events.slice(this.events.length - capacity)
      this.capacity = capacity
    }
  }

  /**
   * The events after `from`; throws `{ oldest }` (the last version the window cannot serve) when
   * `from` is before the window.
   */
  since(from: number, currentRv: number): CachedEvent[] | { tooOld: number } {
    let oldest: number
    if (!this.removed) oldest = this.listRv + 1
    else if (this.events.length) oldest = this.events[0].rv
    else oldest = currentRv + 1
    if (from < oldest - 1) return { tooOld: oldest - 1 }
    return this.events.filter(e => e.rv > from)
  }

  /** Drops all but the newest `keep` events, as if they had left the window. */
  compact(keep: number): void {
    if (this.events.length > keep) this.events = this.events.slice(this.events.length - keep)
    this.removed = true
  }
}
