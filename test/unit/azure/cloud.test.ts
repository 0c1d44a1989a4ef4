// The Azure clouds' endpoint helpers: which authority hosts MSAL knows (public, US Government,
// China; any case, trailing slashes), the ARM scope of an endpoint, and slash trimming.
import { describe, expect, it } from '@jest/globals'
import { armScope, cloudDefaults, isKnownAuthorityHost, normalizeEndpoint } from '../../../src/azure/cloud.js'

describe('Azure cloud endpoints', () => {
  it.each([
    ['https://login.microsoftonline.com', true],
    ['https://LOGIN.microsoftonline.com//', true],
    ['https://login.microsoftonline.us/', true],
    ['https://login.chinacloudapi.cn', true],
    ['https://login.microsoftonline.com.evil.example', false],
    ['https://127.0.0.1:4443', false]
  ])(
    'knows the three clouds’ authority hosts, whatever the case or trailing slashes: %s → %s',
    (host, known) => {
      expect(isKnownAuthorityHost(host)).toBe(known)
    }
  )
  it.each([
    [armScope, 'https://management.azure.com/', 'https://management.azure.com/.default'],
    [armScope, 'https://management.usgovcloudapi.net', 'https://management.usgovcloudapi.net/.default'],
    [normalizeEndpoint, 'https://management.azure.com///', 'https://management.azure.com'],
    [normalizeEndpoint, 'https://host/path/', 'https://host/path']
  ])(
    'the ARM scope without a double slash; every trailing slash trimmed and nothing else: %p(%s)',
    (f, endpoint, want) => {
      expect(f(endpoint)).toBe(want)
    }
  )
  it('every cloud’s default authority host is one it knows', () => {
    for (const env of ['AzureCloud', 'AzureUSGovernment', 'AzureChinaCloud'] as const)
      expect(isKnownAuthorityHost(cloudDefaults(env).authorityHost)).toBe(true)
  })
})
