// What the az stand-in keeps in its configuration folder ($AZURE_CONFIG_DIR, else ~/.azure), in the
// files the real Azure CLI uses for the same things: `config` (the active cloud), `clouds.config`
// (cloud endpoints, INI), `azureProfile.json` (the signed-in accounts) and
// `service_principal_entries.json` (a service principal's secret or federated token, mode 0600);
// plus the stand-in's own access-token cache. The simulated world writes `clouds.config` so that
// AzureCloud's endpoints are the world's.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'

export interface Cloud {
  name: string
  /** Entra authority host (`endpoint_active_directory`). */
  activeDirectory: string
  /** ARM endpoint (`endpoint_resource_manager`). */
  resourceManager: string
  /** The resource ARM tokens are asked for (`endpoint_active_directory_resource_id`). */
  activeDirectoryResourceId: string
}

export const BUILT_IN_CLOUDS: Cloud[] = [
  {
    name: 'AzureCloud',
    activeDirectory: 'https://login.microsoftonline.com',
    resourceManager: 'https://management.azure.com/',
    activeDirectoryResourceId: 'https://management.core.windows.net/'
  },
  {
    name: 'AzureUSGovernment',
    activeDirectory: 'https://login.microsoftonline.us',
    resourceManager: 'https://management.usgovcloudapi.net/',
    activeDirectoryResourceId: 'https://management.core.usgovcloudapi.net/'
  },
  {
    name: 'AzureChinaCloud',
    activeDirectory: 'https://login.chinacloudapi.cn',
    resourceManager: 'https://management.chinacloudapi.cn/',
    activeDirectoryResourceId: 'https://management.core.chinacloudapi.cn/'
  }
]

export interface Subscription {
  id: string
  name: string
  state: 'Enabled'
  tenantId: string
  homeTenantId: string
  isDefault: boolean
  environmentName: string
  managedByTenants: unknown[]
  user: { name: string; type: 'servicePrincipal' }
}

export interface ServicePrincipalEntry {
  client_id: string
  tenant: string
  client_secret?: string
  client_assertion?: string
}

interface CachedToken {
  accessToken: string
  /** Seconds since the epoch. */
  expiresOn: number
}

/** `[section]` → key → value of an INI file (az's configparser files). */
export function parseIni(text: string): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {}
  let section: Record<string, string> | undefined
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (!line || line.startsWith('#') || line.startsWith(';')) continue
    const head = /^\[(.+)\]$/.exec(line)
    if (head) {
      section = out[head[1]] ??= {}
      continue
    }
    const eq = line.indexOf('=')
    if (section && eq > 0) section[line.slice(0, eq).trim()] = line.slice(eq + 1).trim()
  }
  return out
}

export function formatIni(doc: Record<string, Record<string, string>>): string {
  return Object.entries(doc)
    .map(
      ([s, kv]) =>
        `[${s}]\n${Object.entries(kv)
          .map(([k, v]) => `${k} = ${v}\n`)
          .join('')}`
    )
    .join('\n')
}

/** The stand-in's view of one configuration folder. */
export class AzProfile {
  readonly dir: string

  constructor(env: NodeJS.ProcessEnv) {
    this.dir = env.AZURE_CONFIG_DIR || path.join(homedir(), '.azure')
  }

  private file(name: string): string {
    return path.join(this.dir, name)
  }

  private readJson<T>(name: string, fallback: T): T {
    try {
      // The real CLI writes azureProfile.json with a UTF-8 byte order mark.
      return JSON.parse(readFileSync(this.file(name), 'utf8').replace(/^\uFEFF/, '')) as T
    } catch {
      return fallback
    }
  }

  private writeJson(name: string, value: unknown, secret = false): void {
    mkdirSync(this.dir, { recursive: true })
    writeFileSync(this.file(name), JSON.stringify(value, null, 2) + '\n', secret ? { mode: 0o600 } : {})
  }

  /** Built-in clouds with `clouds.config` overrides, and the clouds registered there. */
  clouds(): Cloud[] {
    const ini = existsSync(this.file('clouds.config'))
      ? parseIni(readFileSync(this.file('clouds.config'), 'utf8'))
      : {}
    const known = BUILT_IN_CLOUDS.map(c => c.name)
    const names = [...known, ...Object.keys(ini).filter(n => !known.includes(n))]
    return names.map(name => {
      const base = BUILT_IN_CLOUDS.find(c => c.name === name)
      const o = ini[name] ?? {}
      const resourceManager = o.endpoint_resource_manager ?? base?.resourceManager ?? ''
      return {
        name,
        activeDirectory: o.endpoint_active_directory ?? base?.activeDirectory ?? '',
        resourceManager,
        activeDirectoryResourceId:
          o.endpoint_active_directory_resource_id ?? base?.activeDirectoryResourceId ?? resourceManager
      }
    })
  }

  findCloud(name: string): Cloud | undefined {
    return this.clouds().find(c => c.name.toLowerCase() === name.toLowerCase())
  }

  activeCloud(): Cloud {
    const config = existsSync(this.file('config')) ? parseIni(readFileSync(this.file('config'), 'utf8')) : {}
    return this.findCloud(config.cloud?.name ?? 'AzureCloud') ?? BUILT_IN_CLOUDS[0]
  }

  setActiveCloud(cloud: Cloud): void {
    const config = existsSync(this.file('config')) ? parseIni(readFileSync(this.file('config'), 'utf8')) : {}
    config.cloud = { ...config.cloud, name: cloud.name }
    mkdirSync(this.dir, { recursive: true })
    writeFileSync(this.file('config'), formatIni(config))
  }

  /** Writes a cloud's endpoints into `clouds.config` (the world does this for AzureCloud). */
  registerCloud(
    cloud: Omit<Cloud, 'activeDirectoryResourceId'> & { activeDirectoryResourceId?: string }
  ): void {
    const ini = existsSync(this.file('clouds.config'))
      ? parseIni(readFileSync(this.file('clouds.config'), 'utf8'))
      : {}
    ini[cloud.name] = {
      endpoint_active_directory: cloud.activeDirectory,
      endpoint_resource_manager: cloud.resourceManager,
      ...(cloud.activeDirectoryResourceId
        ? { endpoint_active_directory_resource_id: cloud.activeDirectoryResourceId }
        : {})
    }
    mkdirSync(this.dir, { recursive: true })
    writeFileSync(this.file('clouds.config'), formatIni(ini))
  }

  subscriptions(): Subscription[] {
    return this.readJson<{ subscriptions?: Subscription[] }>('azureProfile.json', {}).subscriptions ?? []
  }

  saveSubscriptions(subs: Subscription[]): void {
    this.writeJson('azureProfile.json', { installationId: 'aks-rdma-sim', subscriptions: subs })
  }

  servicePrincipals(): ServicePrincipalEntry[] {
    return this.readJson<ServicePrincipalEntry[]>('service_principal_entries.json', [])
  }

  saveServicePrincipal(entry: ServicePrincipalEntry): void {
    const others = this.servicePrincipals().filter(
      e => !(e.client_id === entry.client_id && e.tenant === entry.tenant)
    )
    this.writeJson('service_principal_entries.json', [...others, entry], true)
  }

  cachedToken(key: string): CachedToken | undefined {
    return this.readJson<Record<string, CachedToken>>('standin_token_cache.json', {})[key]
  }

  cacheToken(key: string, token: CachedToken): void {
    const cache = this.readJson<Record<string, CachedToken>>('standin_token_cache.json', {})
    cache[key] = token
    this.writeJson('standin_token_cache.json', cache, true)
  }

  /** `az logout` / `az account clear`: every account, secret and cached token. */
  clear(): void {
    for (const f of ['azureProfile.json', 'service_principal_entries.json', 'standin_token_cache.json'])
      rmSync(this.file(f), { force: true })
  }
}
