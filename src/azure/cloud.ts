// Endpoint helpers of the Azure clouds (their defaults per `environment` are settings/clouds.ts):
// whether an authority host is one MSAL knows, the ARM scope, trailing-slash normalisation.
import { CLOUDS } from '../settings/clouds.js'

export { cloudDefaults, type CloudDefaults } from '../settings/clouds.js'

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
