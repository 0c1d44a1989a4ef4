// Fetches the cluster's kubeconfig through ARM, masks its secrets and writes it mode 0600 under
// RUNNER_TEMP. On AAD clusters kubelogin is replaced by an exec credential: docs/design.md.
import type { TokenCredential } from '@azure/identity'
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { parse, stringify } from 'yaml'
import { EXEC_CREDENTIAL_API, tokenExecEntry, type TokenAnswer } from '../kube/exec-token.js'
import type { Settings } from '../settings/settings.js'
import { armError, describeArmError } from './arm-errors.js'
import { ClusterNotFoundError, isClusterNotFound } from './cluster-missing.js'
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
  /** AAD clusters: renew the AKS token when less than this is left (default 5 min, at most half its life). */
  refreshMarginMs?: number
}

export interface KubeconfigResult {
  path: string
  kind: 'user' | 'admin'
  /** True when the kubelogin exec user was replaced by an Entra bearer token. */
  aad: boolean
  /** Set for AAD clusters: serves the AKS token to the kubeconfig's exec credential until stop(). */
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

/** Writes the file (0600) through a temporary one, so a reader never sees it half written. */
function writePrivate(file: string, text: string): void {
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`
  writeFileSync(tmp, text, { mode: 0o600 })
  chmodSync(tmp, 0o600)
  renameSync(tmp, file)
}

/** Where the token service listens: a socket in a new 0700 folder (a named pipe on Windows). */
function tokenSocketPlace(dir: string): { socket: string; folder?: string } {
  if (process.platform === 'win32')
    return { socket: `\\\\.\\pipe\\aks-rdma-action-token-${randomBytes(8).toString('hex')}` }
  // Unix socket paths are limited to about 100 bytes: fall back to the OS temp folder.
  for (const base of [dir, os.tmpdir()]) {
    const folder = mkdtempSync(path.join(base, 'aks-rdma-token-'))
    const socket = path.join(folder, 's')
    if (Buffer.byteLength(socket) <= 100) return { socket, folder }
    rmSync(folder, { recursive: true, force: true })
  }
  throw new Error('cluster credentials: no folder with a short enough path for the token socket')
}

/**
 * The AKS server application token of an AAD cluster, served to everything that reads the
 * kubeconfig for as long as the run lasts: the kubeconfig's user is an exec credential
 * (src/kube/exec-token.ts) that asks this service over a local socket; each answer is a token with
 * more than the margin left, and says to ask again once only the margin is left (so helm and
 * kubectl renew before expiry, and a token never expires in their hands). When the run ends
 * (stop), the kubeconfig gets the last token itself, valid until it expires, for the post step.
 */
export class TokenRefresher {
  private current?: { token: string; expiresAt: number; lifetimeMs: number }
  private pending?: Promise<boolean>
  private server?: net.Server
  private place?: { socket: string; folder?: string }

  constructor(
    private readonly credential: TokenCredential,
    private readonly file: string,
    private doc: Kubeconfig,
    private readonly userNames: string[],
    private readonly mask: Log['secret'],
    private readonly log: Log,
    /** Renew when less than this is left (default 5 min; at most half a token's lifetime). */
    private readonly marginMs = 5 * 60_000
  ) {}

  /** The socket the service listens on (once serving). */
  get socket(): string | undefined {
    return this.place?.socket
  }

  /** The renewal margin of the current token: the configured one, at most half its lifetime. */
  private margin(): number {
    return Math.min(this.marginMs, (this.current?.lifetimeMs ?? Infinity) / 2)
  }

  /** A token with more than the margin left (renewed when needed). */
  async token(): Promise<string> {
    await this.refresh()
    return this.current!.token
  }

  /** Renews when the token is close to expiry (or `force`); returns whether it did. */
  async refresh(force = false): Promise<boolean> {
    if (!force && this.current && this.current.expiresAt - Date.now() > this.margin()) return false
    this.pending ??= this.renew().finally(() => (this.pending = undefined))
    return this.pending
  }

  private async renew(): Promise<boolean> {
    const asked = Date.now()
    const t = await this.credential.getToken(AKS_SERVER_SCOPE)
    if (!t?.token)
      throw new Error('cluster credentials: Entra returned no token for the AKS server application')
    this.mask(t.token)
    this.current = {
      token: t.token,
      expiresAt: t.expiresOnTimestamp,
      lifetimeMs: Math.max(0, t.expiresOnTimestamp - asked)
    }
    this.log.debug(
      `cluster credentials: AKS token renewed, valid for ${Math.round((t.expiresOnTimestamp - Date.now()) / 1000)} s`
    )
    return true
  }

  /** The service's answer: a credential to use until only the margin is left, or why there is none. */
  private async answer(): Promise<TokenAnswer> {
    try {
      await this.refresh()
      const c = this.current!
      return {
        credential: {
          apiVersion: EXEC_CREDENTIAL_API,
          kind: 'ExecCredential',
          status: { token: c.token, expirationTimestamp: new Date(c.expiresAt - this.margin()).toISOString() }
        }
      }
    } catch (e) {
      return {
        error: `getting a token for the AKS server application failed: ${e instanceof Error ? e.message : String(e)}`
      }
    }
  }

  /**
   * Starts serving tokens on a local socket (in a new 0700 folder under `dir`) and rewrites the
   * kubeconfig so its AAD users ask it (an exec credential). Idempotent.
   */
  async serve(dir: string): Promise<void> {
    if (this.server) return
    const place = tokenSocketPlace(dir)
    const server = net.createServer(conn => {
      conn.on('error', () => undefined)
      void this.answer().then(a => conn.end(JSON.stringify(a)))
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(place.socket, () => resolve())
    })
    server.unref() // never what keeps the process alive
    this.server = server
    this.place = place
    this.writeUsers({ exec: tokenExecEntry(place.socket) })
  }

  /** Kept for callers that start the service explicitly: serving began with the credentials. */
  start(): void {}

  /**
   * Stops serving: the kubeconfig gets the last token itself (valid until it expires, for the post
   * step and later steps of the job), and the socket's folder is removed.
   */
  stop(): void {
    this.server?.close()
    this.server = undefined
    if (this.place?.folder) rmSync(this.place.folder, { recursive: true, force: true })
    this.place = undefined
    if (this.current && existsSync(this.file)) this.writeUsers({ token: this.current.token })
  }

  private writeUsers(user: Record<string, unknown>): void {
    for (const u of this.doc.users ?? []) if (this.userNames.includes(u.name)) u.user = { ...user }
    writePrivate(this.file, stringify(this.doc))
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
    if (isClusterNotFound(e, name)) throw new ClusterNotFoundError(settings, clients.subscriptionId)
    throw new Error(
      `${step}: listing ${kind} credentials failed: ${describeArmError(e)}${armError(e).status === 403 && !/^AuthorizationFailed$/i.test(armError(e).code) ? ` (the identity needs Microsoft.ContainerService/managedClusters/list${adminCredentials ? 'ClusterAdmin' : 'ClusterUser'}Credential/action)` : ''}`
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
  // AAD cluster: kubelogin would need its own login (device code hangs in CI). Serve tokens for
  // the AKS server app from the same credential instead (checked once here).
  const refresher = new TokenRefresher(credential, file, doc, aadUsers, mask, o.log, o.refreshMarginMs)
  try {
    await refresher.refresh(true)
  } catch (e) {
    throw new Error(
      `${step}: the cluster uses Entra ID (AAD) and getting a token for the AKS server application failed: ${e instanceof Error ? e.message : describeArmError(e)}`
    )
  }
  await refresher.serve(dir)
  o.log.info(
    `${step}: AAD cluster; kubelogin user replaced by an exec credential that gets Entra tokens for the AKS server app from this run (renewed before expiry), written with mode 0600`
  )
  return { path: file, kind, aad: true, refresher }
}

/** Deletes a kubeconfig written by writeClusterCredentials (post step). */
export function removeKubeconfig(file: string | undefined, log: Log): void {
  if (!file || !existsSync(file)) return
  rmSync(file, { force: true })
  log.info('cluster credentials: kubeconfig removed')
}
