// The HTTPS front of the Azure half: one server on 127.0.0.1 (port 0) with the world's
// certificate, dispatching by path to the GitHub OIDC stand-in (`/oidc/...`), ARM
// (`/subscriptions/...`, `/providers/...`) or Entra (`/{tenant}/...`). Applies scripted faults
// first, writes the response (or resets the connection) and records every request.
//
// Mutating (recorder): PUT, POST, PATCH and DELETE to ARM (pool/cluster writes, feature and
// provider registration), EXCEPT the credential POSTs (listClusterUserCredential /
// listClusterAdminCredential), which only read. Entra token POSTs and OIDC GETs are reads.
import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { SimRecorder } from '../contracts.js'
import type { WorldTls } from '../tls.js'
import type { AzureService, FaultInjector } from './faults.js'
import type { SimHttpRequest, SimHttpResponse } from './http.js'
import { OIDC_PREFIX } from './oidc.js'
import { isArmReadOnlyPost } from './arm/router.js'

export interface AzureHandlers {
  oidc(req: SimHttpRequest): SimHttpResponse
  entra(req: SimHttpRequest): SimHttpResponse
  arm(req: SimHttpRequest): SimHttpResponse
}

export function serviceOf(path: string): AzureService {
  if (path === OIDC_PREFIX || path.startsWith(`${OIDC_PREFIX}/`)) return 'oidc'
  if (/^\/(subscriptions|providers)(\/|$)/i.test(path)) return 'arm'
  return 'entra'
}

export function isMutating(service: AzureService, method: string, path: string): boolean {
  if (service !== 'arm') return false
  const m = method.toUpperCase()
  if (m === 'POST') return !isArmReadOnlyPost(path)
  return m === 'PUT' || m === 'PATCH' || m === 'DELETE'
}

export async function startHttpsServer(
  tls: WorldTls,
  handlers: AzureHandlers,
  faults: FaultInjector,
  recorder: SimRecorder
): Promise<{ server: Server; base: string }> {
  const server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => dispatch(req, res, Buffer.concat(chunks)))
    req.on('error', () => res.destroy())
  })

  function dispatch(raw: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const url = new URL(raw.url ?? '/', 'https://127.0.0.1')
    const req: SimHttpRequest = {
      method: (raw.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      query: url.searchParams,
      headers: raw.headers,
      body
    }
    const service = serviceOf(req.path)
    let out: SimHttpResponse
    try {
      out = faults.take(service, req) ?? handlers[service](req)
    } catch (e) {
      out = {
        status: 500,
        body: {
          error: {
            code: 'InternalServerError',
            message: `Simulator error: ${e instanceof Error ? e.message : String(e)}`
          }
        }
      }
    }
    recorder.record({
      service,
      method: req.method,
      path: req.path,
      status: out.reset ? 0 : out.status,
      mutating: isMutating(service, req.method, req.path)
    })
    if (out.reset) {
      raw.socket.destroy()
      return
    }
    const headers: Record<string, string> = { ...(out.headers ?? {}) }
    let payload: string | undefined
    if (out.body !== undefined) {
      payload = typeof out.body === 'string' ? out.body : JSON.stringify(out.body)
      headers['Content-Type'] ??=
        typeof out.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8'
    }
    if (service === 'arm') {
      const id = randomUUID()
      headers['x-ms-request-id'] = id
      headers['x-ms-correlation-request-id'] = String(
        raw.headers['x-ms-correlation-request-id'] ?? randomUUID()
      )
      headers['x-ms-routing-request-id'] = `EASTUS:${id}`
    }
    headers['Content-Length'] = String(payload ? Buffer.byteLength(payload) : 0)
    res.writeHead(out.status, headers)
    res.end(payload)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return { server, base: `https://127.0.0.1:${port}` }
}

export async function stopServer(server: Server): Promise<void> {
  server.closeAllConnections()
  await new Promise<void>(resolve => server.close(() => resolve()))
}
