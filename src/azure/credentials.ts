// Cluster credentials: fetches the user (or admin) kubeconfig through ARM, masks every token,
// certificate and key in it, and writes it with mode 0600 under RUNNER_TEMP. On AAD clusters
// the kubelogin exec user is replaced by a bearer token for the AKS server application from
// the action's own credential, which a TokenRefresher renews before it expires.
import type { TokenCredential } from '@azure/identity'
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parse, stringify } from 'yaml'
import type { Settings } from '../settings/settings.js'
import { armError, describeArmError } from './arm-errors.js'
import type { ArmClients } from './clients.js'
import type { Log } from '../log/index.js'

/** The AKS AAD server application every AAD cluster token must be issued for. */
export const AKS_SERVER_APP_ID = '6dae42f8-4368-4678-94ff-3960e28e3630'
export const AKS_SERVER_SCOPE = `${AKS_SERVER_APP_ID}/.default`

export interface CredentialsOptions {
  log: Log
  /** Where secrets are registered so no log shows them (default: the log's secret()). */
  mask?: Log['secret']
  /** Directory for the file; defaults to RUNNER_TEMP, then the OS temp dir. */
  dir?: string
  /** AAD clusters: renew the AKS token when less than this is left (default 5 min). */
  refreshMarginMs?: number
}

export interface KubeconfigResult {
  path: string
  kind: 'user' | 'admin'
  /** True when the kubelogin exec user was replaced by an Entra bearer token. */
  aad: boolean
  /** Set for AAD clusters: renews the bearer token in the file. */
  refresher?: TokenRefresher
}

interface KubeUser {
  name: string
  user?: Record<string, unknown> & {
    token?: string
    exec?: { command?: string; args?: string[] }
    'auth-provider'?: { name?: string }
  }
}

interface Kubeconfig {
  users?: KubeUser[]
  [k: string]: unknown
}

function isAadUser(u: KubeUser): boolean {
  const cmd = u.user?.exec?.command ?? ''
  return /kubelogin/i.test(cmd) || u.user?.['auth-provider']?.name === 'azure'
}

/** Masks every credential-bearing value in a kubeconfig. */
export function maskKubeconfig(doc: Kubeconfig, mask: Log['secret']): void {
  for (const u of doc.users ?? []) {
    for (const k of ['token', 'client-key-data', 'client-certificate-data', 'password']) {
      const v = u.user?.[k]
      if (typeof v === 'string' && v) mask(v)
    }
  }
}

function writePrivate(file: string, text: string): void {
  writeFileSync(file, text, { mode: 0o600 })
  chmodSync(file, 0o600)
}

/** Renews the AKS bearer token in an AAD kubeconfig before it expires (for long waits). */
export class TokenRefresher {
  private expiresOn = 0
  private timer?: NodeJS.Timeout
  constructor(
    private readonly credential: TokenCredential,
    private readonly file: string,
    private doc: Kubeconfig,
    private readonly userNames: string[],
    private readonly mask: Log['secret'],
    private readonly log: Log,
    /** Renew when less than this is left (default 5 min). */
    private readonly marginMs = 5 * 60_000
  ) {}

  /** A token valid for at least the margin; rewrites the file when it had to renew. */
  async token(): Promise<string> {
    await this.refresh()
    return this.current()
  }

  private current(): string {
    const u = this.doc.users?.find(x => this.userNames.includes(x.name))
    return String(u?.user?.token ?? '')
  }

  /** Renews when the token is close to expiry (or `force`); returns whether it did. */
  async refresh(force = false): Promise<boolean> {
    if (!force && this.expiresOn - Date.now() > this.marginMs) return false
    const t = await this.credential.getToken(AKS_SERVER_SCOPE)
    if (!t?.token)
      throw new Error('cluster credentials: Entra returned no token for the AKS server application')
    this.mask(t.token)
    for (const u of this.doc.users ?? []) if (this.userNames.includes(u.name)) u.user = { token: t.token }
    writePrivate(this.file, stringify(this.doc))
    this.expiresOn = t.expiresOnTimestamp
    this.log.debug(
      `cluster credentials: AKS token renewed, valid for ${Math.round((t.expiresOnTimestamp - Date.now()) / 1000)} s`
    )
    return true
  }

  /** Checks every `everyMs` in the background until stop(); errors are logged as warnings. */
  start(everyMs = 60_000): void {
    this.stop()
    this.timer = setInterval(() => {
      this.refresh().catch(e =>
        this.log.warning(
          `cluster credentials: renewing the AKS token failed: ${e instanceof Error ? e.message : String(e)}`
        )
      )
    }, everyMs)
    this.timer.unref()
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
  }
}

/** Fetches the kubeconfig, masks it and writes it (0600). The caller exports KUBECONFIG. */
export async function writeClusterCredentials(
  clients: ArmClients,
  settings: Settings,
  credential: TokenCredential,
  o: CredentialsOptions
): Promise<KubeconfigResult> {
  const mask = o.mask ?? ((s: string) => o.log.secret(s))
  const { resourceGroup, name, adminCredentials } = settings.cluster
  const step = `cluster credentials ${resourceGroup}/${name}`
  const kind = adminCredentials ? 'admin' : 'user'
  let result
  try {
    result = adminCredentials
      ? await clients.containerService.managedClusters.listClusterAdminCredentials(resourceGroup, name)
      : await clients.containerService.managedClusters.listClusterUserCredentials(resourceGroup, name)
  } catch (e) {
    if (adminCredentials) {
      const { message } = armError(e)
      let localDisabled = /local account/i.test(message)
      if (!localDisabled) {
        const cluster = await clients.containerService.managedClusters
          .get(resourceGroup, name)
          .catch(() => undefined)
        localDisabled = cluster?.disableLocalAccounts === true
      }
      if (localDisabled) {
        throw new Error(
          `${step}: admin credentials are unavailable because the cluster has local accounts disabled (AAD-only). Set admin-credentials: false; the action then signs in to the cluster with its own Entra identity, which needs a Kubernetes RBAC role (e.g. Azure Kubernetes Service RBAC Cluster Admin). (${describeArmError(e)})`
        )
      }
    }
    throw new Error(
      `${step}: listing ${kind} credentials failed: ${describeArmError(e)}${armError(e).status === 403 ? ` (the identity needs Microsoft.ContainerService/managedClusters/list${adminCredentials ? 'ClusterAdmin' : 'ClusterUser'}Credential/action)` : ''}`
    )
  }
  const value = result.kubeconfigs?.[0]?.value
  if (!value || value.length === 0) throw new Error(`${step}: ARM returned no kubeconfig`)
  // The SDK already base64-decoded `value`: these are the kubeconfig's bytes.
  const text = Buffer.from(value).toString('utf8')
  let doc: Kubeconfig
  try {
    doc = (parse(text) ?? {}) as Kubeconfig
  } catch {
    throw new Error(`${step}: the kubeconfig ARM returned is not valid YAML`)
  }
  maskKubeconfig(doc, mask)

  const dir = o.dir ?? process.env.RUNNER_TEMP ?? os.tmpdir()
  const file = path.join(
    dir,
    `kubeconfig-${name.replace(/[^a-zA-Z0-9-]/g, '-')}-${randomBytes(4).toString('hex')}`
  )
  const aadUsers = (doc.users ?? []).filter(isAadUser).map(u => u.name)
  if (aadUsers.length === 0) {
    writePrivate(file, text)
    o.log.info(`${step}: ${kind} kubeconfig written (mode 0600)`)
    return { path: file, kind, aad: false }
  }
  // AAD cluster: kubelogin would need its own login (device code hangs in CI). Use a bearer
  // token for the AKS server app from the same credential instead.
  const refresher = new TokenRefresher(credential, file, doc, aadUsers, mask, o.log, o.refreshMarginMs)
  try {
    await refresher.refresh(true)
  } catch (e) {
    throw new Error(
      `${step}: the cluster uses Entra ID (AAD) and getting a token for the AKS server application failed: ${e instanceof Error ? e.message : describeArmError(e)}`
    )
  }
  o.log.info(
    `${step}: AAD cluster; kubelogin user replaced by an Entra token for the AKS server app (renewed before expiry), written with mode 0600`
  )
  return { path: file, kind, aad: true, refresher }
}

/** Deletes a kubeconfig written by writeClusterCredentials (post step). */
export function removeKubeconfig(file: string | undefined, log: Log): void {
  if (!file || !existsSync(file)) return
  rmSync(file, { force: true })
  log.info('cluster credentials: kubeconfig removed')
}
