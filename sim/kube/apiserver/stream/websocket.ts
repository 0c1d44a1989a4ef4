// The server side of a WebSocket (RFC 6455), enough for the API server's upgraded streams: the
// handshake (Sec-WebSocket-Accept, the subprotocol picked from the client's offer), masked client
// frames (fragments joined, ping answered, close answered), unmasked binary frames out.
import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'

export interface WebSocketConn {
  protocol: string
  /** Sends one binary message. */
  send(data: Buffer): void
  /** Sends a close frame (code 1000 unless given) and ends the socket. */
  close(code?: number, reason?: string): void
  onMessage(fn: (data: Buffer) => void): void
  /** The connection ended (a close frame, or the socket closed). */
  onClose(fn: () => void): void
}

/** The protocols the client offers (`Sec-WebSocket-Protocol`), in its order. */
export function offeredProtocols(req: IncomingMessage): string[] {
  return String(req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map(p => p.trim())
    .filter(Boolean)
}

export function isWebSocketUpgrade(req: IncomingMessage): boolean {
  return String(req.headers.upgrade ?? '').toLowerCase() === 'websocket' && !!req.headers['sec-websocket-key']
}

function frame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length
  const head = len < 126 ? Buffer.alloc(2) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10)
  head[0] = 0x80 | opcode
  if (len < 126) head[1] = len
  else if (len < 65536) {
    head[1] = 126
    head.writeUInt16BE(len, 2)
  } else {
    head[1] = 127
    head.writeBigUInt64BE(BigInt(len), 2)
  }
  return Buffer.concat([head, payload])
}

/** Completes the handshake on `socket` with `protocol` and returns the connection. */
export function acceptWebSocket(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  protocol: string
): WebSocketConn {
  const accept = createHash('sha1')
    .update(`${String(req.headers['sec-websocket-key'])}${GUID}`)
    .digest('base64')
  socket.write(
    [
      'HTTP/1.1 101 Switching Protocols',
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Accept: ${accept}`,
      ...(protocol ? [`Sec-WebSocket-Protocol: ${protocol}`] : []),
      '',
      ''
    ].join('\r\n')
  )
  const messageFns: Array<(d: Buffer) => void> = []
  const closeFns: Array<() => void> = []
  let buf = head.length ? Buffer.from(head) : Buffer.alloc(0)
  let fragments: Buffer[] = []
  let closed = false
  const ended = () => {
    if (closed) return
    closed = true
    for (const fn of closeFns) fn()
  }
  const write = (b: Buffer) => {
    if (!socket.destroyed && socket.writable) socket.write(b)
  }
  const parse = () => {
    for (;;) {
      if (buf.length < 2) return
      const fin = (buf[0] & 0x80) !== 0
      const opcode = buf[0] & 0x0f
      const masked = (buf[1] & 0x80) !== 0
      let len = buf[1] & 0x7f
      let at = 2
      if (len === 126) {
        if (buf.length < 4) return
        len = buf.readUInt16BE(2)
        at = 4
      } else if (len === 127) {
        if (buf.length < 10) return
        len = Number(buf.readBigUInt64BE(2))
        at = 10
      }
      const maskAt = at
      if (masked) at += 4
      if (buf.length < at + len) return
      const payload = Buffer.from(buf.subarray(at, at + len))
      if (masked) for (let i = 0; i < payload.length; i++) payload[i] ^= buf[maskAt + (i % 4)]
      buf = buf.subarray(at + len)
      if (opcode === 0x8) {
        write(frame(0x8, payload.subarray(0, 2)))
        socket.end()
        ended()
        return
      }
      if (opcode === 0x9) write(frame(0xa, payload))
      else if (opcode === 0x0 || opcode === 0x1 || opcode === 0x2) {
        fragments.push(payload)
        if (fin) {
          const msg = Buffer.concat(fragments)
          fragments = []
          for (const fn of messageFns) fn(msg)
        }
      }
    }
  }
  socket.on('data', (d: Buffer) => {
    buf = Buffer.concat([buf, d])
    parse()
  })
  socket.on('close', ended)
  socket.on('error', ended)
  setImmediate(parse)
  return {
    protocol,
    send: data => write(frame(0x2, data)),
    close: (code = 1000, reason = '') => {
      const payload = Buffer.alloc(2 + Buffer.byteLength(reason))
      payload.writeUInt16BE(code, 0)
      payload.write(reason, 2)
      write(frame(0x8, payload))
      socket.end()
      ended()
    },
    onMessage: fn => void messageFns.push(fn),
    onClose: fn => void closeFns.push(fn)
  }
}
