// Unit-test helper: the Azure part of the settings (src/settings/settings.ts's AzureSettings) as
// readSettings makes it from the inputs of a public-cloud run with client-id and tenant-id and
// auth-type auto; a test overrides what it is about.
import type { AzureSettings } from '../../src/settings/settings.js'

export const azureSettings = (over: Partial<AzureSettings> = {}): AzureSettings => ({
  authType: 'auto',
  clientId: 'app-1',
  tenantId: 'tenant-1',
  audience: 'api://AzureADTokenExchange',
  environment: 'AzureCloud',
  armEndpoint: 'https://management.azure.com',
  authorityHost: 'https://login.microsoftonline.com',
  ...over
})
