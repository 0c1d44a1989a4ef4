// RS256 JSON Web Tokens for the simulated world: key pairs generated per world with node:crypto,
// signing, signature verification, decoding and the public keys as a JWKS document.
import { generateKeyPairSync, randomUUID, sign, verify, type KeyObject } from 'node:crypto'

export interface JwtKey {
  kid: string
  privateKey: KeyObject
  publicKey: KeyObject
}

export type JwtClaims = Record<string, unknown>

export interface DecodedJwt {
  header: Record<string, unknown>
  payload: JwtClaims
  signingInput: string
  signature: Buffer
}

export function newJwtKey(): JwtKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return { kid: randomUUID().replace(/-/g, ''), privateKey, publicKey }
}

function b64url(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url')
}

export function signJwt(key: JwtKey, claims: JwtClaims): string {
  const header = { alg: 'RS256', typ: 'JWT', kid: key.kid }
  const signingInput = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`
  const signature = sign('RSA-SHA256', Buffer.from(signingInput), key.privateKey)
  return `${signingInput}.${b64url(signature)}`
}

/** Splits and parses a compact JWT without checking anything; undefined when it is not one. */
export function decodeJwt(token: string): DecodedJwt | undefined {
  const parts = token.split('.')
  if (parts.length !== 3) return undefined
  try {
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'))
    const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'))
    if (typeof header !== 'object' || header === null || typeof payload !== 'object' || payload === null)
      return undefined
    return {
      header,
      payload,
      signingInput: `${parts[0]}.${parts[1]}`,
      signature: Buffer.from(parts[2], 'base64url')
    }
  } catch {
    return undefined
  }
}

/** The payload when `token` is an RS256 JWT signed by `key`; undefined otherwise. Checks no claims. */
export function verifyJwt(token: string, key: JwtKey): JwtClaims | undefined {
  const d = decodeJwt(token)
  if (!d || d.header.alg !== 'RS256') return undefined
  const ok = verify('RSA-SHA256', Buffer.from(d.signingInput), key.publicKey, d.signature)
  return ok ? d.payload : undefined
}

/** The public half of the keys as a JWKS document (`/discovery/v2.0/keys`, `/.well-known/jwks`). */
export function jwks(...keys: JwtKey[]): { keys: Array<Record<string, unknown>> } {
  return {
    keys: keys.map(k => ({
      ...k.publicKey.export({ format: 'jwk' }),
      kid: k.kid,
      use: 'sig',
      alg: 'RS256',
      kty: 'RSA'
    }))
  }
}
