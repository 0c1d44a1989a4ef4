// The simulated Kubernetes API server: HTTPS on 127.0.0.1 with the world's certificate,
// bearer-token / AAD-token / client-certificate authentication, discovery, the resource verbs
// over the ObjectStore, watch streams, scenario faults, and one recorder entry per request.
import { createServer } from 'node:https'
import { stringify as stringifyYaml } from 'yaml'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { SimClock, SimRecorder } from '../../contracts.js'
import type { FaultSpec } from '../../scenario.js'
import type { WorldTls } from '../../tls.js'
import type { ObjectStore } from '../store.js'
import { StoreError } from '../store.js'
import { SelectorError } from '../selectors.js'
import { type AccessGrant, installAccess, restrictedUsers } from './access.js'
import { type TokenUser, type UserInfo, authenticate, authenticateToken } from './authn.js'
import { createToken, serviceAccountUser } from './sa-tokens.js'
import { installCrdController } from './crds.js'
import { apiGroup, apiGroupList, apiResourceList, apiVersions, versionInfo } from './discovery.js'
import { KubeFaults } from './faults.js'
import { ServerThrottle, type ThrottleSpec } from './throttle.js'
import { openApiV2Doc, openApiV3Doc, openApiV3Index } from './openapi.js'
import { OPENAPI_V2_PROTOBUF, openApiV2Media, openApiV2Protobuf } from './openapi-v2-proto.js'
import {
  type LogProvider,
  type Reply,
  type VerbEnv,
  type VerbRequest,
  checkSelectors,
  createObject,
  getObject,
  isDryRun,
  listObjects,
  patchObject,
  storeErrorToApi,
  updateObject
} from './handlers.js'
import { deleteCollection, deleteObject, finalizeNamespace } from './deletes.js'
import { ephemeralContainers } from './ephemeral.js'
import { podEviction } from './eviction.js'
import { podBinding, podLog } from './pods.js'
import { warningHeaders } from './fields.js'
import { parseBool } from './parse-bool.js'
import { formatPath } from './fieldpaths.js'
import { ApplyConflictError } from './managed.js'
import { type OutputMedia, negotiate, notAcceptable } from './media.js'
import { PatchError } from './patch.js'
import { PROTOBUF_MEDIA_TYPE, canEncode, encodeObject, groupSpeaksProtobuf } from './protobuf.js'
import { type ResourceRoute, resolveResource, splitApiPath } from './route.js'
import { PathNotFound } from './not-found.js'
import { atVersion } from './crd-versions.js'
import { getScale, writeScale } from './scale.js'
import { ApiError, reasonForCode } from './status.js'
import { authorize, forbidden, requestAttributes, seedBootstrapRbac } from './rbac.js'
import { REVIEW_GROUPS, impersonate, review } from './reviews.js'
import { serveWatch } from './watch.js'
import { listOptionsError } from './list-options.js'
import { type PodStreams, refuseUpgrade, serveStream } from './stream/upgrade.js'
import { followLog, wantsFollow } from './follow.js'

export { installCrdController } from './crds.js'
export { SERVER_VERSION } from './discovery.js'

export interface ApiServerOptions {
  store: ObjectStore
  tls: WorldTls
  recorder: SimRecorder
  clock: SimClock
  /** Accepted static bearer tokens. */
  tokens: Set<string>
  /** The user each static token stands for (default: clusterUser in system:masters). */
  tokenUsers?: Record<string, TokenUser>
  /** AAD-enabled clusters: accepts tokens issued for the AKS server app. */
  verifyAadToken?: (token: string) => boolean
  /** scenario.kube.access: users with fewer rights (RBAC rules instead of system:masters). */
  access?: AccessGrant[]
  /** scenario.kube.faults entries with `api` or `watch`. */
  faults?: FaultSpec[]
  /** scenario.kube.throttle: 429 with Retry-After beyond this rate. */
  throttle?: ThrottleSpec
  /** pods/log provider (the simulated controllers supply it). */
  logs?: LogProvider
  /** exec / attach / portforward / log following: the nodes' kubelets (the simulated controllers). */
  streams?: PodStreams
}

export interface ApiServer {
  url: string
  close(): Promise<void>
}

const PUBLIC_PATHS = new Set(['/version', '/healthz', '/livez', '/readyz'])
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const MAX_BODY = 16 * 1024 * 1024

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > MAX_BODY) reject(new ApiError(413, 'BadRequest', 'request entity too large'))
      else chunks.push(c)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/** Writes a reply in the negotiated encoding (JSON when none was negotiated or the body is text). */
function send(res: ServerResponse, reply: Reply, media?: OutputMedia): void {
  let data: string | Buffer
  let contentType = reply.contentType ?? 'application/json'
  if (typeof reply.body === 'string' || Buffer.isBuffer(reply.body)) data = reply.body
  else if (media?.encoding === 'protobuf' && !reply.contentType && canEncode(reply.body)) {
    data = encodeObject(reply.body as Record<string, unknown>)
    contentType = PROTOBUF_MEDIA_TYPE
  } else if (media?.encoding === 'yaml' && !reply.contentType) {
    data = stringifyYaml(reply.body)
    contentType = 'application/yaml'
  } else data = JSON.stringify(reply.body)
  res.writeHead(reply.status, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(data),
    'Cache-Control': 'no-cache, private',
    ...(reply.warnings?.length ? { Warning: warningHeaders(reply.warnings) } : {})
  })
  res.end(data)
}

function toApiError(err: unknown, route?: ResourceRoute): ApiError {
  if (err instanceof ApiError) return err
  if (err instanceof StoreError) return storeErrorToApi(err, route)
  if (err instanceof SelectorError) return new ApiError(400, 'BadRequest', err.message)
  if (err instanceof PatchError) return new ApiError(422, 'Invalid', err.message)
  if (err instanceof ApplyConflictError)
    return new ApiError(409, 'Conflict', err.message, {
      ...(route ? { name: route.name, group: route.type.group, kind: route.type.plural } : {}),
      causes: err.conflicts.map(c => ({
        reason: 'FieldManagerConflict',
        message: `conflict with "${c.manager}" using ${c.apiVersion}`,
        field: formatPath(c.path)
      }))
    })
  return new ApiError(
    500,
    'InternalError',
    `Internal error occurred: ${(err as Error)?.message ?? String(err)}`
  )
}

function discovery(o: ApiServerOptions, pathname: string, host: string, accept: string): Reply | undefined {
  const store = o.store
  if (pathname === '/version') return { status: 200, body: versionInfo() }
  if (pathname === '/openapi/v2') {
    const media = openApiV2Media(accept)
    if (!media) return { status: 406, body: '', contentType: 'text/plain' }
    if (media === 'protobuf')
      return { status: 200, body: openApiV2Protobuf(openApiV2Doc(store)), contentType: OPENAPI_V2_PROTOBUF }
  }
  if (['/healthz', '/livez', '/readyz'].includes(pathname))
    return { status: 200, body: 'ok', contentType: 'text/plain' }
  if (pathname === '/api') return { status: 200, body: apiVersions(host) }
  if (pathname === '/apis') return { status: 200, body: apiGroupList(store) }
  if (pathname === '/openapi/v2') return { status: 200, body: openApiV2Doc(store) }
  if (pathname === '/openapi/v3') return { status: 200, body: openApiV3Index(store) }
  if (pathname.startsWith('/openapi/v3/')) {
    const doc = openApiV3Doc(store, pathname)
    return doc ? { status: 200, body: doc } : undefined
  }
  const segs = pathname.split('/').filter(Boolean)
  if (segs[0] === 'api' && segs.length === 2) {
    const list = apiResourceList(store, '', segs[1])
    return list ? { status: 200, body: list } : undefined
  }
  if (segs[0] === 'apis' && segs.length === 2) {
    const g = apiGroup(store, segs[1])
    return g ? { status: 200, body: g } : undefined
  }
  if (segs[0] === 'apis' && segs.length === 3) {
    const list = apiResourceList(store, segs[1], segs[2])
    return list ? { status: 200, body: list } : undefined
  }
  return undefined
}

function dispatch(env: VerbEnv, r: VerbRequest): Reply {
  const { name, subresource } = r.route
  switch (r.method) {
    case 'GET':
      if (!name) return listObjects(env, r)
      if (subresource === 'log') return podLog(env, r)
      if (subresource === 'exec' || subresource === 'attach' || subresource === 'portforward')
        throw new ApiError(400, 'BadRequest', 'Upgrade request required')
      if (subresource === 'scale') return getScale(env, r)
      if (subresource === 'ephemeralcontainers') return ephemeralContainers(env, r)
      if (subresource && subresource !== 'status') break
      return getObject(env, r)
    case 'POST':
      if (subresource === 'exec' || subresource === 'attach' || subresource === 'portforward')
        throw new ApiError(400, 'BadRequest', 'Upgrade request required')
      if (!name) return createObject(env, r)
      if (subresource === 'eviction') return podEviction(env, r)
      if (subresource === 'binding') return podBinding(env, r)
      if (subresource === 'token') return createToken(env, r)
      break
    case 'PUT':
      if (name && subresource === 'scale') return writeScale(env, r)
      if (name && subresource === 'finalize') return finalizeNamespace(env, r)
      if (name && subresource === 'ephemeralcontainers') return ephemeralContainers(env, r)
      if (name && (!subresource || subresource === 'status')) return updateObject(env, r)
      break
    case 'PATCH':
      if (name && subresource === 'scale') return writeScale(env, r)
      if (name && subresource === 'ephemeralcontainers') return ephemeralContainers(env, r)
      if (name && (!subresource || subresource === 'status')) return patchObject(env, r)
      break
    case 'DELETE':
      if (!name) return deleteCollection(env, r)
      if (!subresource) return deleteObject(env, r)
      break
  }
  throw new ApiError(
    405,
    'MethodNotAllowed',
    `the server does not allow this method on the requested resource`
  )
}

/** What every request of one server shares: its options, authentication, faults, throttle, host. */
interface ServerContext {
  o: ApiServerOptions
  authn: Parameters<typeof authenticate>[1]
  faults: KubeFaults
  throttle?: ServerThrottle
  bookmarkEveryMs: number
  /** `127.0.0.1:<port>` once listening. */
  host: string
}

/** The path of a request's URL without trailing slashes. */
function requestPath(url: URL): string {
  return url.pathname.replace(/\/+$/, '') || '/'
}

/**
 * The gates before a resource is served, in kube-apiserver's filter order: authentication,
 * impersonation and authorization (public paths exempt), then API priority and fairness and the
 * scenario's faults. Returns the user, or what to answer instead (`reset`: drop the connection).
 */
function admitRequest(
  c: ServerContext,
  req: IncomingMessage,
  method: string,
  url: URL,
  isResource: boolean
): { user?: UserInfo } | { refuse: ApiError } | { reset: true } {
  const pathname = requestPath(url)
  let user: UserInfo | undefined = authenticate(req, c.authn)
  if (!PUBLIC_PATHS.has(pathname)) {
    if (!user) return { refuse: new ApiError(401, 'Unauthorized', 'Unauthorized') }
    user = impersonate(c.o.store, user, req)
    const attrs = requestAttributes(method, pathname, url.searchParams)
    if (!authorize(c.o.store, user, attrs).allowed) return { refuse: forbidden(user, attrs) }
  }
  if (c.throttle && isResource && !c.throttle.admit())
    return {
      refuse: new ApiError(429, 'TooManyRequests', 'Too many requests, please try again later.', {
        retryAfterSeconds: c.throttle.retryAfterSeconds
      })
    }
  const fault = c.faults.forRequest(method, pathname)
  if (fault?.reset) return { reset: true }
  if (fault) {
    const code = fault.status ?? 500
    return {
      refuse: new ApiError(
        code,
        reasonForCode(code),
        code === 429 ? 'Too many requests, please try again later.' : `simulated fault (${code})`,
        fault.retryAfter ? { retryAfterSeconds: fault.retryAfter } : undefined
      )
    }
  }
  return { user }
}

/** One admitted request on a resource: a watch, a followed log, or a verb (reviews included). */
async function serveResource(
  c: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  a: { method: string; url: URL; route: ResourceRoute; user?: UserInfo; record: (status: number) => void }
): Promise<void> {
  const { method, route, record } = a
  const o = c.o
  const accept = String(req.headers.accept ?? '')
  const body = await readBody(req)
  const q = a.url.searchParams
  const env: VerbEnv = { store: o.store, logs: o.logs }
  const watching = route.watchPath || parseBool(q, 'watch')
  const protobuf = groupSpeaksProtobuf(route.type.group)
  if (method === 'GET' && !route.subresource && (!route.name || watching)) {
    const invalid = listOptionsError(q)
    if (invalid) throw invalid
  }
  if (method === 'GET' && watching && !route.name) {
    const media = negotiate(accept, { protobuf, table: true, watch: true })
    if (!media) throw notAcceptable(true)
    const timeout = Number(q.get('timeoutSeconds') ?? '')
    checkSelectors(env, route.type, q.get('fieldSelector') ?? undefined)
    record(200)
    return serveWatch(
      req,
      res,
      o.store,
      route.type,
      {
        namespace: route.namespace,
        labelSelector: q.get('labelSelector') ?? undefined,
        fieldSelector: q.get('fieldSelector') ?? undefined,
        resourceVersion: q.get('resourceVersion') ?? undefined,
        allowWatchBookmarks: parseBool(q, 'allowWatchBookmarks'),
        timeoutSeconds: Number.isFinite(timeout) && timeout > 0 ? timeout : undefined
      },
      {
        bookmarkEveryMs: c.bookmarkEveryMs,
        cut: c.faults.forWatch(),
        protobuf: media.encoding === 'protobuf'
      }
    )
  }
  if (method === 'GET' && route.subresource === 'log' && wantsFollow(q)) {
    record(200)
    return followLog(env, route, q, req, res, o.streams)
  }
  const media = negotiate(accept, { protobuf, table: true })
  if (!media) throw notAcceptable()
  const verbRequest: VerbRequest = {
    method,
    route,
    query: q,
    body,
    contentType: String(req.headers['content-type'] ?? 'application/json'),
    accept: accept || 'application/json',
    table: media.table,
    userAgent: String(req.headers['user-agent'] ?? '')
  }
  const verb = requestAttributes(method, requestPath(a.url), q).verb
  if (!route.subresource && route.type.verbs && !route.type.verbs.includes(verb))
    throw new ApiError(
      405,
      'MethodNotAllowed',
      'the server does not allow this method on the requested resource'
    )
  const reply = REVIEW_GROUPS.has(route.type.group)
    ? review(o.store, a.user!, verbRequest, (token, audiences) =>
        authenticateToken(token, c.authn, audiences)
      )
    : dispatch(env, verbRequest)
  reply.body = atVersion(reply.body, route.type)
  record(reply.status)
  send(res, reply, media)
}

/** One HTTP request: recorded once, admitted, then discovery or a resource; errors as a Status. */
async function handleRequest(c: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase()
  const url = new URL(req.url ?? '/', `https://${c.host}`)
  const pathname = requestPath(url)
  let route: ResourceRoute | undefined
  let recorded = false
  const record = (status: number) => {
    if (recorded) return
    recorded = true
    c.o.recorder.record({
      service: 'kube',
      method,
      path: pathname,
      status,
      mutating: MUTATING.has(method) && !isDryRun(url.searchParams),
      ...(route ? { resource: route.type.plural } : {})
    })
  }
  const accept = String(req.headers.accept ?? '')
  const fail = (err: ApiError) => {
    record(err.code)
    if (!res.headersSent) {
      if (err.details?.retryAfterSeconds) res.setHeader('Retry-After', String(err.details.retryAfterSeconds))
      if (err instanceof PathNotFound) {
        res.writeHead(404, {
          'Content-Type': 'text/plain; charset=utf-8',
          'X-Content-Type-Options': 'nosniff'
        })
        return void res.end(err.body())
      }
      // A Status travels in whatever the client accepts; a failed negotiation answers in JSON.
      const media = err.code === 406 ? undefined : negotiate(accept, { protobuf: true, table: false })
      send(res, { status: err.code, body: err.toStatus() }, media)
    } else res.end()
  }
  try {
    const split = splitApiPath(pathname)
    const isResource = !!split && split.rest.length > 0
    if (split && isResource) {
      try {
        route = resolveResource(c.o.store, split.group, split.version, split.rest)
      } catch {
        route = undefined
      }
    }
    const admitted = admitRequest(c, req, method, url, isResource)
    if ('reset' in admitted) {
      record(0)
      req.socket.destroy()
      return
    }
    if ('refuse' in admitted) {
      req.resume()
      return fail(admitted.refuse)
    }
    if (!split || !isResource) {
      req.resume()
      const reply = method === 'GET' ? discovery(c.o, pathname, c.host, accept) : undefined
      if (!reply) return fail(new PathNotFound())
      record(reply.status)
      return send(res, reply)
    }
    if (!route) route = resolveResource(c.o.store, split.group, split.version, split.rest) // throws NotFound
    await serveResource(c, req, res, { method, url, route, user: admitted.user, record })
  } catch (err) {
    fail(toApiError(err, route))
  }
}

/** An upgrade request (exec, attach, port-forward): authorized as `create` on the subresource. */
function handleUpgrade(c: ServerContext, req: IncomingMessage, socket: Socket, head: Buffer): void {
  const url = new URL(req.url ?? '/', `https://${c.host}`)
  const pathname = requestPath(url)
  let route: ResourceRoute | undefined
  const record = (status: number) =>
    c.o.recorder.record({
      service: 'kube',
      method: req.method ?? 'GET',
      path: pathname,
      status,
      mutating: false,
      ...(route ? { resource: route.type.plural } : {})
    })
  try {
    const split = splitApiPath(pathname)
    if (!split) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource')
    route = resolveResource(c.o.store, split.group, split.version, split.rest)
    const stream = ['exec', 'attach', 'portforward'].includes(route.subresource ?? '')
    if (!route.name || !stream)
      throw new ApiError(400, 'BadRequest', 'this resource is not served as a stream')
    let user = authenticate(req, c.authn)
    if (!user) throw new ApiError(401, 'Unauthorized', 'Unauthorized')
    user = impersonate(c.o.store, user, req)
    // Upgraded stream requests are authorized as `create` on the subresource, whatever the method.
    const attrs = requestAttributes('POST', pathname, url.searchParams)
    if (!authorize(c.o.store, user, attrs).allowed) throw forbidden(user, attrs)
    serveStream(c.o.store, c.o.streams, route, url.searchParams, req, socket, head)
    record(101)
  } catch (err) {
    const e = toApiError(err, route)
    record(e.code)
    refuseUpgrade(socket, e)
  }
}

export async function startApiServer(o: ApiServerOptions): Promise<ApiServer> {
  installCrdController(o.store)
  seedBootstrapRbac(o.store)
  installAccess(o.store, o.access)
  const c: ServerContext = {
    o,
    authn: {
      tokens: o.tokens,
      ...(o.tokenUsers ? { tokenUsers: o.tokenUsers } : {}),
      ...(o.verifyAadToken ? { verifyAadToken: o.verifyAadToken } : {}),
      restricted: restrictedUsers(o.access),
      serviceAccountUser: (token, audiences) => serviceAccountUser(o.store, token, audiences)
    },
    faults: new KubeFaults(o.faults ?? [], o.clock),
    throttle: o.throttle ? new ServerThrottle(o.throttle) : undefined,
    bookmarkEveryMs: Math.min(10_000, Math.max(50, o.clock.real(60_000))),
    host: '127.0.0.1'
  }
  const sockets = new Set<Socket>()
  const track = (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  }
  const server = createServer(
    { cert: o.tls.certPem, key: o.tls.keyPem, ca: o.tls.caPem, requestCert: true, rejectUnauthorized: false },
    (req, res) => void handleRequest(c, req, res)
  )
  server.on('secureConnection', track)
  server.on('connection', track)
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) =>
    handleUpgrade(c, req, socket, head)
  )
  server.on('tlsClientError', () => undefined)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as { port: number }).port
  c.host = `127.0.0.1:${port}`
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>(resolve => {
        server.close(() => resolve())
        for (const s of sockets) s.destroy()
      })
  }
}
