// SPDY/3.1 framing, the server's half of what kubectl's port-forward speaks (tunnelled through a
// WebSocket): control frames (SYN_STREAM, SYN_REPLY, RST_STREAM, SETTINGS, PING, GOAWAY, HEADERS,
// WINDOW_UPDATE) and data frames, name/value header blocks compressed with zlib and the SPDY/3
// dictionary, one compression context per direction for the whole connection (draft-mbelshe-
// httpbis-spdy-00 §2.6, as github.com/moby/spdystream@v0.5.0 spdy/ implements it for client-go).
import { constants, createDeflate, createInflate, type Deflate, type Inflate } from 'node:zlib'

/** The SPDY/3 header compression dictionary (draft §2.6.10.1), 1423 bytes. */
const DICTIONARY = Buffer.from(
  'AAAAB29wdGlvbnMAAAAEaGVhZAAAAARwb3N0AAAAA3B1dAAAAAZkZWxldGUAAAAFdHJhY2UAAAAGYWNjZXB0AAAADmFjY2VwdC1j' +
    'aGFyc2V0AAAAD2FjY2VwdC1lbmNvZGluZwAAAA9hY2NlcHQtbGFuZ3VhZ2UAAAANYWNjZXB0LXJhbmdlcwAAAANhZ2UAAAAFYWxs' +
    'b3cAAAANYXV0aG9yaXphdGlvbgAAAA1jYWNoZS1jb250cm9sAAAACmNvbm5lY3Rpb24AAAAMY29udGVudC1iYXNlAAAAEGNvbnRl' +
    'bnQtZW5jb2RpbmcAAAAQY29udGVudC1sYW5ndWFnZQAAAA5jb250ZW50LWxlbmd0aAAAABBjb250ZW50LWxvY2F0aW9uAAAAC2Nv' +
    'bnRlbnQtbWQ1AAAADWNvbnRlbnQtcmFuZ2UAAAAMY29udGVudC10eXBlAAAABGRhdGUAAAAEZXRhZwAAAAZleHBlY3QAAAAHZXhw' +
    'aXJlcwAAAARmcm9tAAAABGhvc3QAAAAIaWYtbWF0Y2gAAAARaWYtbW9kaWZpZWQtc2luY2UAAAANaWYtbm9uZS1tYXRjaAAAAAhp' +
    'Zi1yYW5nZQAAABNpZi11bm1vZGlmaWVkLXNpbmNlAAAADWxhc3QtbW9kaWZpZWQAAAAIbG9jYXRpb24AAAAMbWF4LWZvcndhcmRz' +
    'AAAABnByYWdtYQAAABJwcm94eS1hdXRoZW50aWNhdGUAAAATcHJveHktYXV0aG9yaXphdGlvbgAAAAVyYW5nZQAAAAdyZWZlcmVy' +
    'AAAAC3JldHJ5LWFmdGVyAAAABnNlcnZlcgAAAAJ0ZQAAAAd0cmFpbGVyAAAAEXRyYW5zZmVyLWVuY29kaW5nAAAAB3VwZ3JhZGUA' +
    'AAAKdXNlci1hZ2VudAAAAAR2YXJ5AAAAA3ZpYQAAAAd3YXJuaW5nAAAAEHd3dy1hdXRoZW50aWNhdGUAAAAGbWV0aG9kAAAAA2dl' +
    'dAAAAAZzdGF0dXMAAAAGMjAwIE9LAAAAB3ZlcnNpb24AAAAISFRUUC8xLjEAAAADdXJsAAAABnB1YmxpYwAAAApzZXQtY29va2ll' +
    'AAAACmtlZXAtYWxpdmUAAAAGb3JpZ2luMTAwMTAxMjAxMjAyMjA1MjA2MzAwMzAyMzAzMzA0MzA1MzA2MzA3NDAyNDA1NDA2NDA3' +
    'NDA4NDA5NDEwNDExNDEyNDEzNDE0NDE1NDE2NDE3NTAyNTA0NTA1MjAzIE5vbi1BdXRob3JpdGF0aXZlIEluZm9ybWF0aW9uMjA0' +
    'IE5vIENvbnRlbnQzMDEgTW92ZWQgUGVybWFuZW50bHk0MDAgQmFkIFJlcXVlc3Q0MDEgVW5hdXRob3JpemVkNDAzIEZvcmJpZGRl' +
    'bjQwNCBOb3QgRm91bmQ1MDAgSW50ZXJuYWwgU2VydmVyIEVycm9yNTAxIE5vdCBJbXBsZW1lbnRlZDUwMyBTZXJ2aWNlIFVuYXZh' +
    'aWxhYmxlSmFuIEZlYiBNYXIgQXByIE1heSBKdW4gSnVsIEF1ZyBTZXB0IE9jdCBOb3YgRGVjIDAwOjAwOjAwIE1vbiwgVHVlLCBX' +
    'ZWQsIFRodSwgRnJpLCBTYXQsIFN1biwgR01UY2h1bmtlZCx0ZXh0L2h0bWwsaW1hZ2UvcG5nLGltYWdlL2pwZyxpbWFnZS9naWYs' +
    'YXBwbGljYXRpb24veG1sLGFwcGxpY2F0aW9uL3hodG1sK3htbCx0ZXh0L3BsYWluLHRleHQvamF2YXNjcmlwdCxwdWJsaWNwcml2' +
    'YXRlbWF4LWFnZT1nemlwLGRlZmxhdGUsc2RjaGNoYXJzZXQ9dXRmLThjaGFyc2V0PWlzby04ODU5LTEsdXRmLSwqLGVucT0wLg==',
  'base64'
)

export const TYPE = {
  SYN_STREAM: 1,
  SYN_REPLY: 2,
  RST_STREAM: 3,
  SETTINGS: 4,
  PING: 6,
  GOAWAY: 7,
  HEADERS: 8,
  WINDOW_UPDATE: 9
} as const

export const FLAG_FIN = 0x01

export type Frame =
  | { control: true; type: number; flags: number; data: Buffer }
  | { control: false; streamId: number; flags: number; data: Buffer }

/** Splits a byte stream into frames (a partial frame waits for the rest). */
export class FrameReader {
  private buf = Buffer.alloc(0)
  push(chunk: Buffer): Frame[] {
    this.buf = Buffer.concat([this.buf, chunk])
    const out: Frame[] = []
    while (this.buf.length >= 8) {
      const len = this.buf.readUInt32BE(4) & 0xffffff
      if (this.buf.length < 8 + len) break
      const first = this.buf.readUInt32BE(0)
      const flags = this.buf[4]
      const data = Buffer.from(this.buf.subarray(8, 8 + len))
      if (first & 0x80000000) out.push({ control: true, type: first & 0xffff, flags, data })
      else out.push({ control: false, streamId: first & 0x7fffffff, flags, data })
      this.buf = this.buf.subarray(8 + len)
    }
    return out
  }
}

function controlFrame(type: number, flags: number, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE((0x8000 | 3) * 0x10000 + type, 0)
  head.writeUInt32BE(flags * 0x1000000 + data.length, 4)
  return Buffer.concat([head, data])
}

export function dataFrame(streamId: number, flags: number, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(streamId & 0x7fffffff, 0)
  head.writeUInt32BE(flags * 0x1000000 + data.length, 4)
  return Buffer.concat([head, data])
}

export function pingFrame(id: number): Buffer {
  const d = Buffer.alloc(4)
  d.writeUInt32BE(id, 0)
  return controlFrame(TYPE.PING, 0, d)
}

export function rstStreamFrame(streamId: number, status: number): Buffer {
  const d = Buffer.alloc(8)
  d.writeUInt32BE(streamId, 0)
  d.writeUInt32BE(status, 4)
  return controlFrame(TYPE.RST_STREAM, 0, d)
}

/** Runs zlib over successive blocks of one stream, each ended by a sync flush. */
class ZStream {
  private chunks: Buffer[] = []
  private queue: Promise<unknown> = Promise.resolve()
  constructor(private readonly z: Deflate | Inflate) {
    z.on('data', (c: Buffer) => this.chunks.push(c))
  }
  run(block: Buffer): Promise<Buffer> {
    const next = this.queue.then(
      () =>
        new Promise<Buffer>((resolve, reject) => {
          this.z.write(block)
          this.z.flush(constants.Z_SYNC_FLUSH, () => {
            const out = Buffer.concat(this.chunks)
            this.chunks = []
            resolve(out)
          })
          this.z.once('error', reject)
        })
    )
    this.queue = next.catch(() => undefined)
    return next
  }
}

/** The header blocks of one connection: decompression of what comes in, compression of what goes out. */
export class HeaderCodec {
  private readonly inflate = new ZStream(createInflate({ dictionary: DICTIONARY }))
  private readonly deflate = new ZStream(createDeflate({ dictionary: DICTIONARY, level: 9 }))

  async decode(block: Buffer): Promise<Record<string, string>> {
    const raw = await this.inflate.run(block)
    const out: Record<string, string> = {}
    let at = 4
    const count = raw.readUInt32BE(0)
    for (let i = 0; i < count; i++) {
      const nl = raw.readUInt32BE(at)
      const name = raw.toString('utf8', at + 4, at + 4 + nl)
      at += 4 + nl
      const vl = raw.readUInt32BE(at)
      out[name] = raw.toString('utf8', at + 4, at + 4 + vl)
      at += 4 + vl
    }
    return out
  }

  async encode(headers: Record<string, string>): Promise<Buffer> {
    const parts: Buffer[] = [Buffer.alloc(4)]
    parts[0].writeUInt32BE(Object.keys(headers).length, 0)
    for (const [k, v] of Object.entries(headers)) {
      for (const s of [k.toLowerCase(), v]) {
        const len = Buffer.alloc(4)
        len.writeUInt32BE(Buffer.byteLength(s), 0)
        parts.push(len, Buffer.from(s))
      }
    }
    return this.deflate.run(Buffer.concat(parts))
  }

  /** A SYN_REPLY for `streamId` with `headers`. */
  async synReply(streamId: number, headers: Record<string, string>, flags = 0): Promise<Buffer> {
    const id = Buffer.alloc(4)
    id.writeUInt32BE(streamId, 0)
    return controlFrame(TYPE.SYN_REPLY, flags, Buffer.concat([id, await this.encode(headers)]))
  }
}
