// Endpoints of the Azure clouds the action supports: ARM endpoint, Entra authority host and the
// default audience of the GitHub OIDC token. The input helper resolves overrides; these are the
// defaults per `environment`.
import type { CloudName } from '../settings/settings.js'

export interface CloudDefaults {
  armEndpoint: string
  authorityHost: string
  /** Audience of the GitHub ID token exchanged with Entra (identity SDK `deriveAudience`). */
  audience: string
}

const CLOUDS: Record<CloudName, CloudDefaults> = {
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

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '')
}

/** True for the public, US Government and China authority hosts (MSAL knows their metadata). */
export function isKnownAuthorityHost(host: string): boolean {
  const h = trimSlash(host).toLowerCase()
  return Object.values(CLOUDS).some(c => c.authorityHost === h)
}

/** The OAuth scope for ARM at `armEndpoint` (`https://management.azure.com/.default`). */
export function armScope(armEndpoint: string): string {
  return `${trimSlash(armEndpoint)}/.default`
}

export function normalizeEndpoint(url: string): string {
  return trimSlash(url)
}
