// Service account tokens: the TokenRequest subresource (POST serviceaccounts/<name>/token, what
// `kubectl create token` calls) issues a bound RS256 JWT signed with the server's key, and the
// authenticator accepts it back as `system:serviceaccount:<ns>:<name>` while the account (and a
// bound pod or secret) still exists with the same uid — kubernetes/kubernetes@v1.33.2
// pkg/registry/core/serviceaccount/storage/token.go (defaults: 3600 s, the API audiences; bound
// object checks), pkg/apis/authentication/validation/validation.go (ValidateTokenRequest: at least
// 10 minutes, at most 2^32 s), pkg/serviceaccount/claims.go (the `kubernetes.io` private claims and
// their validation), pkg/serviceaccount/util.go (user name and groups). The issuer is the
// kube-apiserver default for an in-cluster issuer; the API audiences are that issuer.
import {
  type KeyObject,
  createHash,
  createSign,
  createVerify,
  generateKeyPairSync,
  randomUUID
} from 'node:crypto'
import type { KubeObject, ObjectStore } from '../store.js'
import type { UserInfo } from './authn.js'
import { type Reply, type VerbEnv, type VerbRequest, getLive, isDryRun, parseBody } from './handlers.js'
import { ApiError } from './status.js'

export const SA_ISSUER = 'https://kubernetes.default.svc.cluster.local'
const MIN_TOKEN_SECONDS = 600
const MAX_TOKEN_SECONDS = 2 ** 32

interface SigningKey {
  priv: KeyObject
  pub: KeyObject
  kid: string
}
const keys = new WeakMap<ObjectStore, SigningKey>()

function signingKey(store: ObjectStore): SigningKey {
  let k = keys.get(store)
  if (!k) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const der = publicKey.export({ type: 'spki', format: 'der' })
    k = { priv: privateKey, pub: publicKey, kid: createHash('sha256').update(der).digest('base64url') }
    keys.set(store, k)
  }
  return k
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')

function invalidTokenRequest(name: string, field: string, value: unknown, detail: string): ApiError {
  const message = `Invalid value: ${JSON.stringify(value)}: ${detail}`
  return new ApiError(
    422,
    'Invalid',
    `TokenRequest.authentication.k8s.io "${name}" is invalid: ${field}: ${message}`,
    {
      name,
      group: 'authentication.k8s.io',
      kind: 'TokenRequest',
      causes: [{ reason: 'FieldValueInvalid', message, field }]
    }
  )
}

const BOUND_KINDS: Record<string, [string, string]> = {
  Pod: ['', 'pods'],
  Secret: ['', 'secrets'],
  Node: ['', 'nodes']
}

/** POST serviceaccounts/<name>/token. */
export function createToken(env: VerbEnv, r: VerbRequest): Reply {
  const sa = getLive(env, r.route)
  const name = sa.metadata.name
  const ns = sa.metadata.namespace!
  const body = parseBody(r) ?? {}
  const spec = { ...(body.spec ?? {}) }
  const seconds = spec.expirationSeconds ?? 3600
  if (seconds < MIN_TOKEN_SECONDS)
    throw invalidTokenRequest(
      name,
      'spec.expirationSeconds',
      seconds,
      'may not specify a duration less than 10 minutes'
    )
  if (seconds > MAX_TOKEN_SECONDS)
    throw invalidTokenRequest(
      name,
      'spec.expirationSeconds',
      seconds,
      'may not specify a duration larger than 2^32 seconds'
    )
  const audiences: string[] = spec.audiences?.length ? spec.audiences : [SA_ISSUER]
  const claims: Record<string, any> = { namespace: ns, serviceaccount: { name, uid: sa.metadata.uid } }
  const ref = spec.boundObjectRef
  if (ref) {
    const kind = BOUND_KINDS[ref.kind]
    if (!kind || (ref.apiVersion ?? 'v1') !== 'v1')
      throw new ApiError(
        400,
        'BadRequest',
        `cannot bind token for serviceaccount "${name}" to object of type ${ref.apiVersion ?? ''}, Kind=${ref.kind ?? ''}`
      )
    const t = env.store.type(...kind)!
    const obj = env.store.tryGet(t, kind[1] === 'nodes' ? undefined : ns, ref.name)
    if (!obj)
      throw new ApiError(404, 'NotFound', `${kind[1]} "${ref.name}" not found`, {
        name: ref.name,
        group: '',
        kind: kind[1]
      })
    if (ref.uid && ref.uid !== obj.metadata.uid)
      throw new ApiError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${kind[1]} "${ref.name}": the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`
      )
    claims[ref.kind.toLowerCase()] = { name: ref.name, uid: obj.metadata.uid }
  }
  const now = Math.floor(env.store.now() / 1000)
  const exp = now + seconds
  const key = signingKey(env.store)
  const payload = {
    aud: audiences,
    exp,
    iat: now,
    iss: SA_ISSUER,
    jti: randomUUID(),
    'kubernetes.io': claims,
    nbf: now,
    sub: `system:serviceaccount:${ns}:${name}`
  }
  const unsigned = `${b64({ alg: 'RS256', kid: key.kid })}.${b64(payload)}`
  const token = `${unsigned}.${createSign('RSA-SHA256').update(unsigned).sign(key.priv).toString('base64url')}`
  const answer: KubeObject = {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { name, namespace: ns, creationTimestamp: env.store.nowTime() } as KubeObject['metadata'],
    spec: { ...spec, audiences, expirationSeconds: seconds, boundObjectRef: ref ?? null },
    status: {
      token: isDryRun(r.query) ? '' : token,
      expirationTimestamp: new Date(exp * 1000).toISOString().replace(/\.\d+Z$/, 'Z')
    }
  }
  return { status: 201, body: answer }
}

/** The user a service account token stands for, or undefined (not ours, expired, account gone). */
export function serviceAccountUser(
  store: ObjectStore,
  token: string,
  audiences: string[] = [SA_ISSUER]
): UserInfo | undefined {
  const parts = token.split('.')
  if (parts.length !== 3) return undefined
  let payload: Record<string, any>
  try {
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'))
    payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'))
    if (header.alg !== 'RS256' || payload.iss !== SA_ISSUER) return undefined
  } catch {
    return undefined
  }
  const key = keys.get(store)
  if (!key) return undefined
  const ok = createVerify('RSA-SHA256')
    .update(`${parts[0]}.${parts[1]}`)
    .verify(key.pub, Buffer.from(parts[2], 'base64url'))
  if (!ok) return undefined
  const now = Math.floor(store.now() / 1000)
  if (typeof payload.exp !== 'number' || now >= payload.exp) return undefined
  if (typeof payload.nbf === 'number' && now < payload.nbf) return undefined
  const aud: string[] = Array.isArray(payload.aud) ? payload.aud : [payload.aud]
  if (!aud.some(a => audiences.includes(a))) return undefined
  const k = payload['kubernetes.io'] ?? {}
  const ns = String(k.namespace ?? '')
  const saType = store.type('', 'serviceaccounts')
  const sa = saType ? store.tryGet(saType, ns, String(k.serviceaccount?.name ?? '')) : undefined
  if (!sa || sa.metadata.deletionTimestamp || sa.metadata.uid !== k.serviceaccount?.uid) return undefined
  for (const kind of ['pod', 'secret'] as const) {
    if (!k[kind]) continue
    const t = store.type('', `${kind}s`)
    const o = t ? store.tryGet(t, ns, String(k[kind].name)) : undefined
    if (!o || o.metadata.deletionTimestamp || o.metadata.uid !== k[kind].uid) return undefined
  }
  return {
    username: `system:serviceaccount:${ns}:${sa.metadata.name}`,
    uid: sa.metadata.uid,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated']
  }
}
