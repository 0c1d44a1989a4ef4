// The Azure clouds the action supports and their endpoints: ARM endpoint, Entra authority host and
// the default audience of the GitHub OIDC token. The settings resolve the `environment` input and
// its overrides with these; azure/ signs in and builds clients with the result.
import type { CloudName } from './settings.js'

export interface CloudDefaults {
  armEndpoint: string
  authorityHost: string
  /** Audience of the GitHub ID token exchanged with Entra (identity SDK `deriveAudience`). */
  audience: string
}

export const CLOUDS: Readonly<Record<CloudName, CloudDefaults>> = {
  AzureCloud: {
    armEndpoint: 'https://management.azure.com',
    authorityHost: 'https://login.microsoftonline.com',
    audience: 'api://AzureADTokenExchange'
  },
  AzureUSGovernment: {
    armEndpoint: 'https://management.usgovcloudapi.net',
    authorityHost: 'https://login.microsoftonline.us',
    audience: 'api://AzureADTokenExchangeUSGov'
  },
  AzureChinaCloud: {
    armEndpoint: 'https://management.chinacloudapi.cn',
    authorityHost: 'https://login.chinacloudapi.cn',
    audience: 'api://AzureADTokenExchangeChina'
  }
}

/** Accepts the canonical names and azure/login's lower-case spellings. */
export function cloudDefaults(env: CloudName | string): CloudDefaults {
  const key = (Object.keys(CLOUDS) as CloudName[]).find(k => k.toLowerCase() === String(env).toLowerCase())
  if (!key)
    throw new Error(`environment "${env}" is not supported; use one of ${Object.keys(CLOUDS).join(', ')}`)
  return { ...CLOUDS[key] }
}

/** The hosts of every known cloud's ARM endpoint and authority host. */
const CLOUD_HOSTS = new Set(
  Object.values(CLOUDS).flatMap(c => [new URL(c.armEndpoint).hostname, new URL(c.authorityHost).hostname])
)

/** Whether an endpoint is one of the known clouds' own: its host, on the default https port. */
export function isCloudEndpoint(url: URL): boolean {
  return url.protocol === 'https:' && url.port === '' && CLOUD_HOSTS.has(url.hostname.toLowerCase())
}
