// How the az stand-in gets an access token: as the real CLI does through MSAL for a service
// principal, the client-credentials grant at `<authority>/<tenant>/oauth2/v2.0/token` with the
// stored secret or federated token and the scope `<resource>/.default` (the resource as given, its
// trailing slash kept). Answers are cached until five minutes before they expire. Entra's error
// description becomes the error message, as az prints it.
import { request } from 'node:https'
import type { AzProfile, Cloud, ServicePrincipalEntry } from './profile.js'

export class AzError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1
  ) {
    super(message)
  }
}

/** MSAL refreshes a cached token this long before it expires. */
const REFRESH_MARGIN_S = 300

function post(url: string, form: URLSearchParams): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const body = form.toString()
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body)
        },
        timeout: 30_000
      },
      res => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', c => (text += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
      }
    )
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url}`)))
    req.on('error', reject)
    req.end(body)
  })
}

export interface AccessToken {
  accessToken: string
  /** Seconds since the epoch. */
  expiresOn: number
}

/** A token for `scope` as `sp` in `tenant`, from the cache or from Entra. */
export async function acquireToken(
  profile: AzProfile,
  cloud: Cloud,
  sp: ServicePrincipalEntry,
  tenant: string,
  scope: string
): Promise<AccessToken> {
  const key = `${cloud.name} ${tenant} ${sp.client_id} ${scope}`
  const now = Math.floor(Date.now() / 1000)
  const cached = profile.cachedToken(key)
  if (cached && cached.expiresOn - now > REFRESH_MARGIN_S) return cached
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: sp.client_id, scope })
  if (sp.client_secret !== undefined) form.set('client_secret', sp.client_secret)
  else if (sp.client_assertion !== undefined) {
    form.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
    form.set('client_assertion', sp.client_assertion)
  }
  const url = `${cloud.activeDirectory.replace(/\/+$/, '')}/${encodeURIComponent(tenant)}/oauth2/v2.0/token`
  let res: { status: number; body: string }
  try {
    res = await post(url, form)
  } catch (e) {
    throw new AzError(`HTTPSConnectionPool: ${(e as Error).message}`)
  }
  let doc: { access_token?: string; expires_in?: number; error_description?: string; error?: string }
  try {
    doc = JSON.parse(res.body)
  } catch {
    throw new AzError(`Unexpected answer from ${url} (HTTP ${res.status})`)
  }
  if (res.status !== 200 || !doc.access_token)
    throw new AzError(doc.error_description ?? doc.error ?? `HTTP ${res.status} from ${url}`)
  const token = { accessToken: doc.access_token, expiresOn: now + Number(doc.expires_in ?? 3599) }
  profile.cacheToken(key, token)
  return token
}
