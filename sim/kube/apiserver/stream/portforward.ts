// pods/portforward as kubectl speaks it since 1.31: SPDY/3.1 tunnelled through a WebSocket
// (subprotocol `SPDY/3.1+portforward.k8s.io`, kubernetes/kubernetes@v1.33 client-go/tools/portforward
// tunneling_dialer.go), and inside it the port-forward protocol (…/kubelet/cri/streaming/portforward
// httpstream.go): for every local connection the client opens an `error` and a `data` stream with
// the same `requestID` and `port` headers; the server answers each SYN_STREAM, joins the pair to a
// connection to the pod's port, pipes the data stream both ways and writes on the error stream why
// a connection failed (the kubelet's words when nothing listens on the port), then closes both.
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { ApiError } from '../status.js'
import { FLAG_FIN, FrameReader, HeaderCodec, TYPE, type Frame, dataFrame, pingFrame } from './spdy.js'
import { acceptWebSocket } from './websocket.js'

export const PORT_FORWARD_PROTOCOL = 'SPDY/3.1+portforward.k8s.io'

export interface PodConnection {
  write(d: Buffer): void
  end(): void
  onData(fn: (d: Buffer) => void): void
  onEnd(fn: () => void): void
}

interface Pair {
  port: number
  error?: number
  data?: number
  conn?: PodConnection
  pending: Buffer[]
  clientDone: boolean
}

const CHUNK = 64 * 1024

export function servePortForward(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  offered: string[],
  connect: (port: number) => PodConnection
): void {
  if (!offered.includes(PORT_FORWARD_PROTOCOL))
    throw new ApiError(
      400,
      'BadRequest',
      `unable to upgrade connection: port forwarding is served over WebSocket with the ${PORT_FORWARD_PROTOCOL} subprotocol`
    )
  const ws = acceptWebSocket(req, socket, head, PORT_FORWARD_PROTOCOL)
  const codec = new HeaderCodec()
  const reader = new FrameReader()
  const pairs = new Map<string, Pair>()
  const byStream = new Map<number, Pair>()
  let chain: Promise<void> = Promise.resolve()
  const send = (b: Buffer) => ws.send(b)
  const sendData = (id: number | undefined, d: Buffer, fin = false) => {
    if (id === undefined) return
    for (let at = 0; at < d.length; at += CHUNK) send(dataFrame(id, 0, d.subarray(at, at + CHUNK)))
    if (fin) send(dataFrame(id, FLAG_FIN, Buffer.alloc(0)))
  }
  const start = (p: Pair) => {
    try {
      p.conn = connect(p.port)
    } catch (err) {
      sendData(p.error, Buffer.from((err as Error).message), true)
      sendData(p.data, Buffer.alloc(0), true)
      return
    }
    p.conn.onData(d => sendData(p.data, d))
    p.conn.onEnd(() => {
      sendData(p.data, Buffer.alloc(0), true)
      sendData(p.error, Buffer.alloc(0), true)
    })
    for (const d of p.pending.splice(0)) p.conn.write(d)
    if (p.clientDone) p.conn.end()
  }
  const onSynStream = async (f: Frame & { control: true }) => {
    const streamId = f.data.readUInt32BE(0) & 0x7fffffff
    const headers = await codec.decode(f.data.subarray(10))
    send(await codec.synReply(streamId, {}))
    const key = headers.requestid ?? String(streamId)
    const pair = pairs.get(key) ?? { port: Number(headers.port), pending: [], clientDone: false }
    pairs.set(key, pair)
    byStream.set(streamId, pair)
    if (headers.streamtype === 'error') pair.error = streamId
    else pair.data = streamId
    if (pair.error !== undefined && pair.data !== undefined) start(pair)
  }
  const handle = async (f: Frame) => {
    if (!f.control) {
      const p = byStream.get(f.streamId)
      if (!p || f.streamId !== p.data) return
      if (f.data.length && p.conn) p.conn.write(f.data)
      else if (f.data.length) p.pending.push(f.data)
      if (f.flags & FLAG_FIN) {
        p.clientDone = true
        p.conn?.end()
      }
      return
    }
    if (f.type === TYPE.SYN_STREAM) await onSynStream(f)
    else if (f.type === TYPE.PING) send(pingFrame(f.data.readUInt32BE(0)))
    else if (f.type === TYPE.RST_STREAM) byStream.get(f.data.readUInt32BE(0) & 0x7fffffff)?.conn?.end()
    else if (f.type === TYPE.GOAWAY) ws.close()
  }
  ws.onMessage(m => {
    for (const f of reader.push(m)) chain = chain.then(() => handle(f)).catch(() => ws.close(1011))
  })
  ws.onClose(() => {
    for (const p of pairs.values()) p.conn?.end()
  })
}
