// The pod subresources served as upgraded streams — exec, attach (WebSocket remote command) and
// portforward (portforward.ts) — with the checks kube-apiserver makes before it dials the kubelet
// (kubernetes/kubernetes@v1.33 pkg/registry/core/pod/strategy.go streamLocation / ExecLocation: the
// container must belong to the pod, the pod must be bound to a node and not finished) and the
// kubelet's own refusals (a container that is not running). A refusal is an HTTP error with a
// metav1.Status body before any upgrade, as the real server answers.
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { ObjectStore } from '../../store.js'
import type { ExecIo, ExecProcess, ExecRequest } from '../../workloads/exec.js'
import { parseBool } from '../parse-bool.js'
import type { ResourceRoute } from '../route.js'
import { ApiError } from '../status.js'
import { servePortForward } from './portforward.js'
import { REMOTE_COMMAND_PROTOCOLS, serveRemoteCommand } from './remotecommand.js'
import { acceptWebSocket, isWebSocketUpgrade, offeredProtocols } from './websocket.js'

/** What the nodes' kubelets serve (the simulated controllers supply it). */
export interface PodStreams {
  exec(ns: string, pod: string, container: string, req: ExecRequest, io: ExecIo): ExecProcess
  attach(ns: string, pod: string, container: string, io: ExecIo): ExecProcess
  /** Follows a container's log: `write` gets each new line until the container ends (`end`); returns the stop. */
  followLog(
    ns: string,
    pod: string,
    container: string,
    write: (text: string) => void,
    end: () => void
  ): () => void
  /** A connection to a pod's port; throws the kubelet's error when nothing listens there. */
  connect(
    ns: string,
    pod: string,
    port: number
  ): {
    write(d: Buffer): void
    end(): void
    onData(fn: (d: Buffer) => void): void
    onEnd(fn: () => void): void
  }
}

/** Writes an HTTP error with a Status body on a socket that was not upgraded. */
export function refuseUpgrade(socket: Duplex, err: ApiError): void {
  const body = JSON.stringify(err.toStatus())
  const text =
    { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }[err.code] ??
    'Internal Server Error'
  socket.end(
    `HTTP/1.1 ${err.code} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-cache, private\r\n\r\n${body}`
  )
}

function bad(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message)
}

/** The container a request names (the pod's only one when it names none), checked against the pod. */
function containerOf(pod: any, q: URLSearchParams): string {
  const names: string[] = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].map(
    (c: any) => c.name
  )
  const main: string[] = (pod.spec?.containers ?? []).map((c: any) => c.name)
  const asked = q.get('container')
  if (!asked) {
    if (main.length === 1) return main[0]
    throw bad(
      `a container name must be specified for pod ${pod.metadata.name}, choose one of: [${main.join(' ')}]`
    )
  }
  if (!names.includes(asked)) throw bad(`container ${asked} is not valid for pod ${pod.metadata.name}`)
  return asked
}

/** Serves an upgrade request for pods/<name>/{exec,attach,portforward}; throws an ApiError to refuse it. */
export function serveStream(
  store: ObjectStore,
  streams: PodStreams | undefined,
  route: ResourceRoute,
  q: URLSearchParams,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer
): void {
  const pod = store.get(route.type, route.namespace, route.name!)
  const ns = pod.metadata.namespace!
  const sub = route.subresource
  if (!isWebSocketUpgrade(req))
    throw bad(
      `unable to upgrade connection: the ${sub} subresource is served over WebSocket here (SPDY is not)`
    )
  const node = pod.spec?.nodeName
  if (!node) throw bad(`pod ${pod.metadata.name} does not have a host assigned`)
  if (sub !== 'portforward' && (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed'))
    throw bad(`cannot ${sub} into a container in a completed pod; current phase is ${pod.status.phase}`)
  const container = sub === 'portforward' ? '' : containerOf(pod, q)
  if (!streams) {
    const ip = (store.tryGet(store.type('', 'nodes')!, undefined, node)?.status?.addresses ?? []).find(
      (a: any) => a.type === 'InternalIP'
    )?.address
    throw new ApiError(
      500,
      'InternalError',
      `error dialing backend: dial tcp ${ip ?? node}:10250: connect: connection refused`
    )
  }
  const offered = offeredProtocols(req)
  if (sub === 'portforward')
    return servePortForward(req, socket, head, offered, (p: number) =>
      streams.connect(ns, pod.metadata.name, p)
    )
  const protocol = REMOTE_COMMAND_PROTOCOLS.find(p => offered.includes(p))
  if (!protocol)
    throw bad(
      `unable to upgrade connection: none of the offered subprotocols [${offered.join(' ')}] is served (${REMOTE_COMMAND_PROTOCOLS.join(', ')})`
    )
  const flags = {
    stdin: parseBool(q, 'stdin'),
    stdout: q.has('stdout') ? parseBool(q, 'stdout') : true,
    stderr: q.has('stderr') ? parseBool(q, 'stderr') : true,
    tty: parseBool(q, 'tty')
  }
  const command = q.getAll('command')
  if (sub === 'exec' && !command.length) throw bad('you must specify at least 1 command')
  // The kubelet refuses a container that is not running before the upgrade.
  const start =
    sub === 'exec'
      ? (io: ExecIo) =>
          streams.exec(ns, pod.metadata.name, container, { command, stdin: flags.stdin, tty: flags.tty }, io)
      : (io: ExecIo) => streams.attach(ns, pod.metadata.name, container, io)
  let proc: ExecProcess | undefined
  let early: ExecIo | undefined
  const buffered: Array<[0 | 1, Buffer]> = []
  try {
    proc = start({
      stdout: d => (early ? early.stdout(d) : buffered.push([0, d])),
      stderr: d => (early ? early.stderr(d) : buffered.push([1, d]))
    })
  } catch (err) {
    throw new ApiError(404, 'NotFound', (err as Error).message)
  }
  const conn = acceptWebSocket(req, socket, head, protocol)
  serveRemoteCommand(conn, flags, command, io => {
    early = io
    for (const [fd, d] of buffered.splice(0)) (fd ? io.stderr : io.stdout)(d)
    return proc!
  })
}
