// The Azure clouds' endpoint helpers: which authority hosts MSAL knows (public, US Government,
// China; any case, trailing slashes), the ARM scope of an endpoint, and slash trimming.
import { describe, expect, it } from '@jest/globals'
import { armScope, cloudDefaults, isKnownAuthorityHost, normalizeEndpoint } from '../../../src/azure/cloud.js'

describe('Azure cloud endpoints', () => {
  it('knows the three clouds’ authority hosts, whatever the case or trailing slashes', () => {
    expect(isKnownAuthorityHost('https://login.microsoftonline.com')).toBe(true)
    expect(isKnownAuthorityHost('https://LOGIN.microsoftonline.com//')).toBe(true)
    expect(isKnownAuthorityHost('https://login.microsoftonline.us/')).toBe(true)
    expect(isKnownAuthorityHost('https://login.chinacloudapi.cn')).toBe(true)
    expect(isKnownAuthorityHost('https://login.microsoftonline.com.evil.example')).toBe(false)
    expect(isKnownAuthorityHost('https://127.0.0.1:4443')).toBe(false)
  })
  it('builds the ARM scope from the endpoint without a double slash', () => {
    expect(armScope('https://management.azure.com/')).toBe('https://management.azure.com/.default')
    expect(armScope('https://management.usgovcloudapi.net')).toBe(
      'https://management.usgovcloudapi.net/.default'
    )
  })
  it('trims every trailing slash and nothing else', () => {
    expect(normalizeEndpoint('https://management.azure.com///')).toBe('https://management.azure.com')
    expect(normalizeEndpoint('https://host/path/')).toBe('https://host/path')
  })
  it('every cloud’s default authority host is one it knows', () => {
    for (const env of ['AzureCloud', 'AzureUSGovernment', 'AzureChinaCloud'] as const)
      expect(isKnownAuthorityHost(cloudDefaults(env).authorityHost)).toBe(true)
  })
})
