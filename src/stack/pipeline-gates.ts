// What the pipelined rollout's waits share: the node pool that may still be provisioning and a local
// signal source that makes every wait look again. Docs: docs/rollout.md#pipelined.
import type { KubeObject } from '../kube/types.js'
import type { WatchEvent, WatchSource } from '../kube/watch.js'

/** What the pipelined waits need to know of the node pool once it is provisioned. */
export interface PoolInfo {
  /** Nodes the pool has: every one must have joined before a step can be done. */
  count: number
}

/** A WatchSource that holds no cluster object: `poke()` makes every watch over it evaluate again. */
export class LocalSignal {
  private version = 0
  private readonly listeners = new Set<(e: WatchEvent) => void>()
  private scheduled = false

  private object(): KubeObject {
    return {
      apiVersion: 'v1',
      kind: 'Signal',
      metadata: { name: 'pipeline', resourceVersion: String(this.version) }
    } as KubeObject
  }

  /** Tells every watch on the next turn of the event loop (never inside another wait's evaluation). */
  poke(): void {
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => {
      this.scheduled = false
      this.version++
      const e: WatchEvent = { type: 'MODIFIED', object: this.object() }
      for (const l of [...this.listeners]) l(e)
    })
  }

  source(): WatchSource {
    return {
      name: 'pipeline-signal',
      list: async () => ({ items: [this.object()], resourceVersion: String(this.version) }),
      watch: async (_rv, onEvent, onDone) => {
        this.listeners.add(onEvent)
        return {
          stop: () => {
            if (this.listeners.delete(onEvent)) onDone(null)
          }
        }
      }
    }
  }
}

/** The node pool as the waits see it: provisioning, ready (with its size and when) or failed. */
export class PoolGate {
  state: 'provisioning' | 'ready' | 'failed'
  count?: number
  readyAt?: number
  reason?: string

  /** Without a promise the pool is taken as ready already (it existed, or the caller waited). */
  constructor(pool: Promise<PoolInfo> | undefined, onChange: () => void) {
    if (!pool) {
      this.state = 'ready'
      this.readyAt = Date.now()
      return
    }
    this.state = 'provisioning'
    pool.then(
      info => {
        this.state = 'ready'
        this.count = info.count
        this.readyAt = Date.now()
        onChange()
      },
      (e: unknown) => {
        this.state = 'failed'
        this.reason = e instanceof Error ? e.message : String(e)
        onChange()
      }
    )
  }
}
