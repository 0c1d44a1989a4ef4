// The helm stand-in's kubeconfig, read as helm reads it through client-go: the file (--kubeconfig,
// else $KUBECONFIG's first entry, else ~/.kube/config), the current context (or --kube-context),
// its cluster (server, CA, TLS server name, insecure-skip-tls-verify) and its user (token, token
// file, client certificate, basic auth, or an exec credential plugin run as client-go runs it).
// Relative file paths resolve against the kubeconfig's folder. Written here rather than taken from
// @kubernetes/client-node: helm is a Go program, and the stand-in starts once per helm command, so
// it stays small (it does not load the action's Kubernetes client).
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse as parseYaml } from 'yaml'

const NO_CONFIG = 'Kubernetes cluster unreachable: invalid configuration: no configuration has been provided'

/** client-go's exec credential API versions (v1alpha1 is gone since client-go 1.24). */
const EXEC_APIS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1']

interface ExecConfig {
  apiVersion?: string
  command?: string
  args?: string[]
  env?: Array<{ name?: string; value?: string }>
  interactiveMode?: string
}

interface UserConfig {
  token?: string
  tokenFile?: string
  'client-certificate'?: string
  'client-certificate-data'?: string
  'client-key'?: string
  'client-key-data'?: string
  username?: string
  password?: string
  exec?: ExecConfig
}

interface ClusterConfig {
  server?: string
  'certificate-authority'?: string
  'certificate-authority-data'?: string
  'insecure-skip-tls-verify'?: boolean
  'tls-server-name'?: string
}

/** What a request needs: TLS material and the credential headers. */
export interface Connection {
  ca?: Buffer
  cert?: Buffer
  key?: Buffer
  rejectUnauthorized: boolean
  servername?: string
  headers: Record<string, string>
}

/** The `key` object of the entry called `name` in a kubeconfig list (clusters, contexts, users). */
function byName<T>(list: unknown, key: string, name: string | undefined): T | undefined {
  if (!Array.isArray(list) || !name) return undefined
  const entry = (list as Array<Record<string, unknown> | null>).find(e => e?.name === name)
  return entry?.[key] as T | undefined
}

/** A kubeconfig's cluster and user, and the exec credential it caches until it expires. */
export class StandinKubeConfig {
  private execCredential?: { token?: string; cert?: Buffer; key?: Buffer; expiresAt?: number }
  private fixed?: { tls: Omit<Connection, 'headers'>; token?: string }

  private constructor(
    private readonly dir: string,
    readonly server: URL,
    readonly namespace: string,
    private readonly cluster: ClusterConfig,
    private readonly user: UserConfig
  ) {}

  /** Loads the kubeconfig as helm does: --kubeconfig, else $KUBECONFIG (first entry), else ~/.kube/config. */
  static load(env: NodeJS.ProcessEnv, file?: string, contextName?: string): StandinKubeConfig {
    const fromEnv = (env.KUBECONFIG ?? '').split(path.delimiter).find(p => p.length > 0)
    const where = file || fromEnv || `${env.HOME ?? ''}/.kube/config`
    let doc: any
    try {
      doc = parseYaml(readFileSync(where, 'utf8')) ?? {}
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code === 'ENOENT' && !file && !fromEnv) throw new Error(NO_CONFIG)
      throw new Error(`Kubernetes cluster unreachable: ${where}: ${code ?? (e as Error).message}`)
    }
    const current = contextName || doc['current-context']
    const context = byName<{ cluster?: string; user?: string; namespace?: string }>(
      doc.contexts,
      'context',
      current
    )
    if (contextName && !context)
      throw new Error(`Kubernetes cluster unreachable: context "${contextName}" does not exist`)
    const cluster = byName<ClusterConfig>(doc.clusters, 'cluster', context?.cluster)
    if (!context || !cluster?.server) throw new Error(NO_CONFIG)
    const user = byName<UserConfig>(doc.users, 'user', context.user) ?? {}
    return new StandinKubeConfig(
      path.dirname(path.resolve(where)),
      new URL(cluster.server),
      context.namespace || 'default',
      cluster,
      user
    )
  }

  private file(p: string): Buffer {
    return readFileSync(path.resolve(this.dir, p))
  }

  private data(inline: string | undefined, file: string | undefined): Buffer | undefined {
    if (inline) return Buffer.from(inline, 'base64')
    return file ? this.file(file) : undefined
  }

  /** The cluster's CA and TLS settings, the user's client certificate and static token. */
  private readFixed(): { tls: Omit<Connection, 'headers'>; token?: string } {
    const c = this.cluster
    const u = this.user
    return {
      tls: {
        ca: this.data(c['certificate-authority-data'], c['certificate-authority']),
        cert: this.data(u['client-certificate-data'], u['client-certificate']),
        key: this.data(u['client-key-data'], u['client-key']),
        rejectUnauthorized: c['insecure-skip-tls-verify'] !== true,
        servername: c['tls-server-name']
      },
      token: u.token || (u.tokenFile ? this.file(u.tokenFile).toString('utf8').trim() : undefined)
    }
  }

  /** TLS material and headers for the next request (an exec plugin runs when its credential expired). */
  async connection(): Promise<Connection> {
    const u = this.user
    // The files are read once, as client-go reads them when it builds its transport.
    const fixed = (this.fixed ??= this.readFixed())
    const conn: Connection = { ...fixed.tls, headers: {} }
    let token = fixed.token
    if (u.exec) {
      const cred = await this.runExec(u.exec)
      token = cred.token ?? token
      if (cred.cert && cred.key) Object.assign(conn, { cert: cred.cert, key: cred.key })
    }
    if (token) conn.headers.Authorization = `Bearer ${token}`
    else if (u.username !== undefined)
      conn.headers.Authorization = `Basic ${Buffer.from(`${u.username}:${u.password ?? ''}`).toString('base64')}`
    return conn
  }

  /**
   * client-go's exec authenticator (plugin/pkg/client/auth/exec): runs the command with the
   * kubeconfig's args and env added to its own, KUBERNETES_EXEC_INFO describing the request, and
   * reads an ExecCredential of the same apiVersion from stdout; the credential is kept until its
   * expirationTimestamp. Its refusals are client-go's (exec.go: a status, a token or a
   * certificate with its key).
   */
  private async runExec(exec: ExecConfig): Promise<NonNullable<StandinKubeConfig['execCredential']>> {
    const held = this.execCredential
    if (held && (held.expiresAt === undefined || held.expiresAt > Date.now())) return held
    const api = exec.apiVersion ?? ''
    if (!EXEC_APIS.includes(api)) throw new Error(`exec plugin: invalid apiVersion "${api}"`)
    const command = exec.command ?? ''
    // A command with a path separator is a path, relative to the kubeconfig (clientcmd's ResolvePaths).
    const bin = command.includes('/') ? path.resolve(this.dir, command) : command
    const env: NodeJS.ProcessEnv = { ...process.env }
    for (const e of exec.env ?? []) if (e?.name) env[e.name] = e.value ?? ''
    env.KUBERNETES_EXEC_INFO = JSON.stringify({
      kind: 'ExecCredential',
      apiVersion: api,
      spec: { interactive: false }
    })
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(bin, exec.args ?? [], { env, maxBuffer: 4 * 1024 * 1024 }, (err, out) => {
        if (!err) return resolve(out)
        const code = (err as { code?: unknown }).code
        reject(
          new Error(
            typeof code === 'number'
              ? `getting credentials: exec: executable ${command} failed with exit code ${code}`
              : `getting credentials: exec: executable ${command} not found`
          )
        )
      })
    )
    let cred: any
    try {
      cred = JSON.parse(stdout)
    } catch {
      throw new Error('getting credentials: decoding stdout: invalid ExecCredential')
    }
    if (cred?.apiVersion !== api)
      throw new Error(
        `getting credentials: exec plugin is configured to use API version ${api}, plugin returned version ${cred?.apiVersion}`
      )
    const s = cred.status
    if (!s) throw new Error("getting credentials: exec plugin didn't return a status field")
    if (!s.token && !s.clientCertificateData && !s.clientKeyData)
      throw new Error("getting credentials: exec plugin didn't return a token or cert/key pair")
    if (!s.clientCertificateData !== !s.clientKeyData)
      throw new Error('getting credentials: exec plugin returned only certificate or key, not both')
    const expiresAt = s.expirationTimestamp ? Date.parse(s.expirationTimestamp) : undefined
    this.execCredential = {
      token: s.token || undefined,
      cert: s.clientCertificateData ? Buffer.from(s.clientCertificateData) : undefined,
      key: s.clientKeyData ? Buffer.from(s.clientKeyData) : undefined,
      expiresAt: Number.isFinite(expiresAt) ? expiresAt : undefined
    }
    return this.execCredential
  }
}
