// Watch streams: chunked JSON lines (`{"type":"ADDED","object":{...}}`) from the store, resumed
// from a resourceVersion, with periodic BOOKMARKs when asked, `timeoutSeconds`, scenario cuts, and
// a too-old version answered the way real API servers do it: an ERROR event carrying a 410 Expired
// Status, then the end of the stream. No watch-list (`sendInitialEvents`): v1.33 refuses it
// (list-options.ts).
// Protobuf clients get the same events as length-framed metav1.WatchEvent messages.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ObjectStore, ResourceType, WatchEvent } from '../store.js'
import { StoreError, apiVersionOf } from '../store.js'
import { PROTOBUF_WATCH_MEDIA_TYPE, watchFrame } from './protobuf.js'
import { statusFailure } from './status.js'
import { atVersion } from './crd-versions.js'

export interface WatchParams {
  namespace?: string
  labelSelector?: string
  fieldSelector?: string
  resourceVersion?: string
  allowWatchBookmarks: boolean
  timeoutSeconds?: number
}

export interface WatchEnv {
  bookmarkEveryMs: number
  /** Cut the stream after this many real ms (scenario fault); `reset` destroys the socket. */
  cut?: { afterMs: number; reset: boolean }
  /** Length-framed protobuf WatchEvents instead of JSON lines. */
  protobuf?: boolean
}

export function serveWatch(
  req: IncomingMessage,
  res: ServerResponse,
  store: ObjectStore,
  type: ResourceType,
  p: WatchParams,
  env: WatchEnv
): void {
  res.writeHead(200, {
    'Content-Type': env.protobuf ? PROTOBUF_WATCH_MEDIA_TYPE : 'application/json',
    'Cache-Control': 'no-cache, private'
  })
  res.flushHeaders()
  const timers: NodeJS.Timeout[] = []
  let stop: (() => void) | undefined
  let finished = false
  const finish = (how: 'end' | 'reset' = 'end') => {
    if (finished) return
    finished = true
    stop?.()
    for (const t of timers) clearTimeout(t)
    if (how === 'reset') req.socket.destroy()
    else res.end()
  }
  const send = (e: { type: string; object: unknown }) => {
    if (finished) return
    if (env.protobuf) res.write(watchFrame(e.type, e.object as Record<string, unknown>))
    else res.write(JSON.stringify(e) + '\n')
  }
  const bookmark = () =>
    send({
      type: 'BOOKMARK',
      object: {
        kind: type.kind,
        apiVersion: apiVersionOf(type),
        metadata: { resourceVersion: store.currentResourceVersion }
      }
    })
  res.on('close', () => finish())
  res.on('error', () => finish())

  const fromVersion = p.resourceVersion
  try {
    stop = store.watch(
      type,
      { namespace: p.namespace, labelSelector: p.labelSelector, fieldSelector: p.fieldSelector, fromVersion },
      (e: WatchEvent) => send({ type: e.type, object: atVersion(e.object, type) })
    )
  } catch (err) {
    if (err instanceof StoreError && err.code === 410) {
      send({ type: 'ERROR', object: statusFailure(410, 'Expired', err.message) })
      finish()
      return
    }
    throw err
  }
  if (p.allowWatchBookmarks) {
    const every = Math.max(20, env.bookmarkEveryMs)
    const interval = setInterval(() => bookmark(), every)
    timers.push(interval)
  }
  if (p.timeoutSeconds && p.timeoutSeconds > 0)
    timers.push(setTimeout(() => finish(), p.timeoutSeconds * 1000))
  if (env.cut) {
    const cut = env.cut
    timers.push(setTimeout(() => finish(cut.reset ? 'reset' : 'end'), cut.afterMs))
  }
}
