// Waiting on cluster state the way controllers do: list, then watch from the list's
// resourceVersion, keeping the current set of objects in memory; a dropped connection resumes
// from the last seen resourceVersion, a 410 Gone relists. The predicate sees the whole current set
// after every change and answers done, fail (fail fast) or not yet; it may ask to be asked again
// after a while (grace periods) — there is no polling sleep. Times out with the last state seen.
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

/** Watches several sources at once; resolves when `predicate` over all their current sets is done. */
export function watchAll<K extends string, V extends Verdict>(
  sources: Record<K, WatchSource>,
  predicate: (snapshot: Snapshot<K>) => V,
  opts: WatchOptions<V>
): Promise<WatchOutcome<K, V>> {
  const names = Object.keys(sources) as K[]
  const maps = new Map<K, Map<string, KubeObject>>(names.map(n => [n, new Map()]))
  const listed = new Set<K>()
  const stops = new Map<K, () => void>()
  let finished = false
  let last: V | undefined
  let lastMessage: string | undefined
  let recheck: ReturnType<typeof setTimeout> | undefined
  let timeout: ReturnType<typeof setTimeout> | undefined

  const snapshot = (): Snapshot<K> => {
    const s = {} as Snapshot<K>
    for (const n of names) s[n] = [...maps.get(n)!.values()]
    return s
  }

  return new Promise<WatchOutcome<K, V>>((resolve, reject) => {
    const finish = (fn: () => void): void => {
      if (finished) return
      finished = true
      if (recheck) clearTimeout(recheck)
      if (timeout) clearTimeout(timeout)
      opts.signal?.removeEventListener('abort', onAbort)
      for (const stop of stops.values()) stop()
      fn()
    }
    const onAbort = (): void => finish(() => reject(opts.signal?.reason ?? new Error('aborted')))

    const evaluate = (): void => {
      if (finished || listed.size < names.length) return
      let v: V
      try {
        v = predicate(snapshot())
      } catch (e) {
        finish(() => reject(e))
        return
      }
      last = v
      if (v.message !== undefined && v.message !== lastMessage) {
        lastMessage = v.message
        opts.onChange?.(v)
      }
      if (v.fail) {
        const snap = snapshot()
        finish(() => reject(new WatchFailError(v, snap)))
        return
      }
      if (v.done) {
        const snap = snapshot()
        finish(() => resolve({ verdict: v, snapshot: snap }))
        return
      }
      if (recheck) clearTimeout(recheck)
      recheck = undefined
      if (v.recheckInMs !== undefined) {
        recheck = setTimeout(evaluate, Math.max(0, v.recheckInMs))
        recheck.unref?.()
      }
    }

    const run = async (name: K): Promise<void> => {
      const source = sources[name]
      const map = maps.get(name)!
      let rv = ''
      let failures = 0
      const relist = async (): Promise<void> => {
        const { items, resourceVersion } = await source.list()
        map.clear()
        for (const it of items) map.set(keyOf(it), it)
        rv = resourceVersion
        listed.add(name)
        evaluate()
      }
      await relist()
      while (!finished) {
        let gone = false
        const ended = new Promise<unknown>(resolveEnd => {
          source
            .watch(
              rv,
              ev => {
                if (finished) return
                if (ev.type === 'ERROR') {
                  const code = (ev.object as { code?: number }).code
                  if (code === 410) gone = true
                  return
                }
                const objRv = ev.object?.metadata?.resourceVersion
                if (objRv) rv = objRv
                failures = 0
                if (ev.type === 'BOOKMARK') return
                if (ev.type === 'DELETED') map.delete(keyOf(ev.object))
                else map.set(keyOf(ev.object), ev.object)
                evaluate()
              },
              err => resolveEnd(err)
            )
            .then(
              h => {
                if (finished) h.stop()
                else stops.set(name, () => h.stop())
              },
              err => resolveEnd(err ?? new Error('watch failed'))
            )
        })
        const err = await ended
        stops.delete(name)
        if (finished) return
        const status =
          (err as { statusCode?: number; code?: number } | null)?.statusCode ??
          (err as { code?: unknown } | null)?.code
        if (gone || status === 410) {
          opts.onNotice?.(`${source.name}: watch history expired (410 Gone); listing again`)
          await relist()
          continue
        }
        // client-node aborts a stream silent for 30 s (TimeoutError): an idle watch, not a failure.
        if (err && (err as { name?: string }).name !== 'TimeoutError') {
          failures++
          const delay = Math.min(MAX_RECONNECT_DELAY_MS, 50 * 2 ** Math.min(failures, 7))
          opts.onNotice?.(
            `${source.name}: watch dropped (${(err as Error)?.message ?? err}); resuming from resourceVersion ${rv}`
          )
          await new Promise(r => setTimeout(r, delay))
        }
      }
    }

    if (opts.signal?.aborted) {
      onAbort()
      return
    }
    opts.signal?.addEventListener('abort', onAbort)
    timeout = setTimeout(
      () => {
        const snap = snapshot()
        finish(() => reject(new WatchTimeoutError<K, V>(last, snap, opts.timeoutMs)))
      },
      Math.max(0, opts.timeoutMs)
    )
    for (const n of names) run(n).catch(e => finish(() => reject(e)))
  })
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
