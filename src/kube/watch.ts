// Waits on cluster state like a controller: list, then watch from its resourceVersion (resume on a drop,
// relist on 410 Gone), no polling sleep; times out with the last state seen. See docs/rollout.md.
import { cancelledWhile, cancelSignal } from '../util/cancel.js'
import type { KubeObject } from './types.js'

export interface WatchEvent {
  type: string
  object: KubeObject
}

/** Something that can be listed and then watched from the list's resourceVersion. */
export interface WatchSource {
  name: string
  list(): Promise<{ items: KubeObject[]; resourceVersion: string }>
  /** Starts a watch; onDone(err) when the connection ends (null: closed by the server). */
  watch(
    resourceVersion: string,
    onEvent: (e: WatchEvent) => void,
    onDone: (err: unknown) => void
  ): Promise<{ stop(): void }>
}

export interface Verdict {
  done: boolean
  /** Fail fast with this reason. */
  fail?: string
  /** One line describing progress; a change of it is reported through onChange. */
  message?: string
  /** Evaluate again after this many milliseconds even if nothing changes (e.g. a grace period). */
  recheckInMs?: number
}

export type Snapshot<K extends string> = Record<K, KubeObject[]>

export interface WatchOptions<V extends Verdict> {
  timeoutMs: number
  /** Called with each verdict whose message differs from the previous one. */
  onChange?: (verdict: V) => void
  /** Called on connection trouble (resume, relist). */
  onNotice?: (line: string) => void
  signal?: AbortSignal
}

export interface WatchOutcome<K extends string, V extends Verdict> {
  verdict: V
  snapshot: Snapshot<K>
}

export class WatchTimeoutError<K extends string = string, V extends Verdict = Verdict> extends Error {
  constructor(
    readonly verdict: V | undefined,
    readonly snapshot: Snapshot<K>,
    readonly timeoutMs: number
  ) {
    super(
      `timed out after ${Math.round(timeoutMs / 1000)}s${verdict?.message ? `; last state: ${verdict.message}` : ''}`
    )
    this.name = 'WatchTimeoutError'
  }
}

export class WatchFailError<K extends string = string, V extends Verdict = Verdict> extends Error {
  constructor(
    readonly verdict: V,
    readonly snapshot: Snapshot<K>
  ) {
    super(verdict.fail ?? 'failed')
    this.name = 'WatchFailError'
  }
}

const keyOf = (o: KubeObject): string => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`

const MAX_RECONNECT_DELAY_MS = 5000

/** Where one source's watch stands: the resourceVersion to resume from, failures in a row. */
interface SourceCursor {
  rv: string
  failures: number
}

/** One watchAll call: the sources' current sets, the last verdict, the timers; settles once. */
class MultiWatch<K extends string, V extends Verdict> {
  private readonly names: K[]
  private readonly maps: Map<K, Map<string, KubeObject>>
  private readonly listed = new Set<K>()
  private readonly stops = new Map<K, () => void>()
  private finished = false
  private last: V | undefined
  private lastMessage: string | undefined
  private recheck: ReturnType<typeof setTimeout> | undefined
  private timeout: ReturnType<typeof setTimeout> | undefined
  private readonly onAbort = (): void =>
    this.finish(() => this.reject(this.opts.signal?.reason ?? new Error('aborted')))
  /** The run's cancellation: the wait ends now, naming what it waited for. */
  private readonly cancel = cancelSignal()
  private readonly onCancel = (): void =>
    this.finish(() =>
      this.reject(cancelledWhile(`waiting on ${this.names.map(n => this.sources[n].name).join(', ')}`))
    )

  constructor(
    private readonly sources: Record<K, WatchSource>,
    private readonly predicate: (snapshot: Snapshot<K>) => V,
    private readonly opts: WatchOptions<V>,
    private readonly resolve: (out: WatchOutcome<K, V>) => void,
    private readonly reject: (e: unknown) => void
  ) {
    this.names = Object.keys(sources) as K[]
    this.maps = new Map(this.names.map(n => [n, new Map()]))
  }

  start(): void {
    const opts = this.opts
    if (opts.signal?.aborted) {
      this.onAbort()
      return
    }
    if (this.cancel.aborted) {
      this.onCancel()
      return
    }
    opts.signal?.addEventListener('abort', this.onAbort)
    this.cancel.addEventListener('abort', this.onCancel)
    this.timeout = setTimeout(
      () => {
        const snap = this.snapshot()
        this.finish(() => this.reject(new WatchTimeoutError<K, V>(this.last, snap, opts.timeoutMs)))
      },
      Math.max(0, opts.timeoutMs)
    )
    for (const n of this.names) this.run(n).catch(e => this.finish(() => this.reject(e)))
  }

  private snapshot(): Snapshot<K> {
    const s = {} as Snapshot<K>
    for (const n of this.names) s[n] = [...this.maps.get(n)!.values()]
    return s
  }

  private finish(fn: () => void): void {
    if (this.finished) return
    this.finished = true
    if (this.recheck) clearTimeout(this.recheck)
    if (this.timeout) clearTimeout(this.timeout)
    this.opts.signal?.removeEventListener('abort', this.onAbort)
    this.cancel.removeEventListener('abort', this.onCancel)
    for (const stop of this.stops.values()) stop()
    fn()
  }

  private evaluate(): void {
    if (this.finished || this.listed.size < this.names.length) return
    let v: V
    try {
      v = this.predicate(this.snapshot())
    } catch (e) {
      this.finish(() => this.reject(e))
      return
    }
    this.last = v
    if (v.message !== undefined && v.message !== this.lastMessage) {
      this.lastMessage = v.message
      this.opts.onChange?.(v)
    }
    if (v.fail) {
      const snap = this.snapshot()
      this.finish(() => this.reject(new WatchFailError(v, snap)))
      return
    }
    if (v.done) {
      const snap = this.snapshot()
      this.finish(() => this.resolve({ verdict: v, snapshot: snap }))
      return
    }
    if (this.recheck) clearTimeout(this.recheck)
    this.recheck = undefined
    if (v.recheckInMs !== undefined) {
      this.recheck = setTimeout(() => this.evaluate(), Math.max(0, v.recheckInMs))
      this.recheck.unref?.()
    }
  }

  /** Lists a source afresh: its set replaced, the watch to resume from the list's resourceVersion. */
  private async relist(name: K, cursor: SourceCursor): Promise<void> {
    const map = this.maps.get(name)!
    const { items, resourceVersion } = await this.sources[name].list()
    map.clear()
    for (const it of items) map.set(keyOf(it), it)
    cursor.rv = resourceVersion
    this.listed.add(name)
    this.evaluate()
  }

  /** One watch connection of a source, until it ends: the error it ended with, and whether a 410 came. */
  private async follow(name: K, cursor: SourceCursor): Promise<{ err: unknown; gone: boolean }> {
    const map = this.maps.get(name)!
    let gone = false
    const err = await new Promise<unknown>(resolveEnd => {
      this.sources[name]
        .watch(
          cursor.rv,
          ev => {
            if (this.finished) return
            if (ev.type === 'ERROR') {
              const code = (ev.object as { code?: number }).code
              if (code === 410) gone = true
              return
            }
            const objRv = ev.object?.metadata?.resourceVersion
            if (objRv) cursor.rv = objRv
            cursor.failures = 0
            if (ev.type === 'BOOKMARK') return
            if (ev.type === 'DELETED') map.delete(keyOf(ev.object))
            else map.set(keyOf(ev.object), ev.object)
            this.evaluate()
          },
          e => resolveEnd(e)
        )
        .then(
          h => {
            if (this.finished) h.stop()
            else this.stops.set(name, () => h.stop())
          },
          e => resolveEnd(e ?? new Error('watch failed'))
        )
    })
    this.stops.delete(name)
    return { err, gone }
  }

  /** Lists a source, then watches it until the whole call settles: resumes after a drop, relists after a 410. */
  private async run(name: K): Promise<void> {
    const source = this.sources[name]
    const cursor: SourceCursor = { rv: '', failures: 0 }
    await this.relist(name, cursor)
    while (!this.finished) {
      const { err, gone } = await this.follow(name, cursor)
      if (this.finished) return
      const status =
        (err as { statusCode?: number; code?: number } | null)?.statusCode ??
        (err as { code?: unknown } | null)?.code
      if (gone || status === 410) {
        this.opts.onNotice?.(`${source.name}: watch history expired (410 Gone); listing again`)
        await this.relist(name, cursor)
        continue
      }
      // client-node aborts a stream silent for 30 s (TimeoutError): an idle watch, not a failure.
      if (err && (err as { name?: string }).name !== 'TimeoutError') {
        cursor.failures++
        const delay = Math.min(MAX_RECONNECT_DELAY_MS, 50 * 2 ** Math.min(cursor.failures, 7))
        this.opts.onNotice?.(
          `${source.name}: watch dropped (${(err as Error)?.message ?? err}); resuming from resourceVersion ${cursor.rv}`
        )
        await new Promise(r => setTimeout(r, delay))
      }
    }
  }
}

/** Watches several sources at once; resolves when `predicate` over all their current sets is done. */
export function watchAll<K extends string, V extends Verdict>(
  sources: Record<K, WatchSource>,
  predicate: (snapshot: Snapshot<K>) => V,
  opts: WatchOptions<V>
): Promise<WatchOutcome<K, V>> {
  return new Promise<WatchOutcome<K, V>>((resolve, reject) =>
    new MultiWatch(sources, predicate, opts, resolve, reject).start()
  )
}

/** Watches one source until the predicate over its current set of objects is done. */
export async function watchUntil<V extends Verdict>(
  source: WatchSource,
  predicate: (objects: KubeObject[]) => V,
  opts: WatchOptions<V>
): Promise<{ verdict: V; objects: KubeObject[] }> {
  try {
    const out = await watchAll({ only: source }, s => predicate(s.only), opts)
    return { verdict: out.verdict, objects: out.snapshot.only }
  } catch (e) {
    if (e instanceof WatchTimeoutError || e instanceof WatchFailError)
      (e as { objects?: KubeObject[] }).objects = e.snapshot.only
    throw e
  }
}
