// Endpoints of each Azure cloud: Resource Manager, Entra authority host and the audience of
// the GitHub OIDC token exchanged with Entra (FACTS.md §2.1).
import type { CloudName } from './settings.js'

export interface CloudEndpoints {
  armEndpoint: string
  authorityHost: string
  audience: string
}

const CLOUDS: Record<CloudName, CloudEndpoints> = {
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

export function cloudDefaults(name: CloudName): CloudEndpoints {
  return CLOUDS[name]
}
