// The kubeconfig exec credential that asks the running action for an AAD cluster's token over a local
// socket (docs/design.md, "Credentials on Entra ID clusters"); other exec plugins' output is masked.
import type { KubeConfig, User } from '@kubernetes/client-node'
import { ExecAuth } from '@kubernetes/client-node/dist/exec_auth.js'
import net from 'node:net'

/** The exec entry's environment variable naming the token service's socket. */
export const TOKEN_SOCKET_ENV = 'AKS_RDMA_ACTION_TOKEN_SOCKET'
export const EXEC_CREDENTIAL_API = 'client.authentication.k8s.io/v1'

/** What the token service answers on its socket: one JSON document, then it closes. */
export type TokenAnswer =
  | {
      credential: {
        apiVersion: typeof EXEC_CREDENTIAL_API
        kind: 'ExecCredential'
        status: { token: string; expirationTimestamp: string }
      }
    }
  | { error: string }

/**
 * The exec plugin's script (CommonJS for `node -e`): forwards the service's credential to stdout,
 * or its error (or why it is unreachable: the run that wrote the kubeconfig has ended) to stderr
 * with exit 1, as client-go expects.
 */
export const TOKEN_HELPER = [
  `const s = require('net').connect(process.env.${TOKEN_SOCKET_ENV});`,
  "let d = ''; s.setEncoding('utf8'); s.on('data', c => (d += c));",
  'const fail = m => { process.stderr.write(`aks-rdma-action token: ${m}\\n`); process.exit(1) };',
  "s.on('error', e => fail(`the action run that wrote this kubeconfig is not serving tokens any more (${e.code}); run it again for a new one`));",
  "s.on('end', () => { let r; try { r = JSON.parse(d) } catch { return fail('no answer') } if (r.error) return fail(r.error); process.stdout.write(JSON.stringify(r.credential)) });"
].join(' ')

/** The kubeconfig `user.exec` of a user whose token the action serves on `socket`. */
export function tokenExecEntry(socket: string, nodePath = process.execPath): Record<string, unknown> {
  return {
    apiVersion: EXEC_CREDENTIAL_API,
    command: nodePath,
    args: ['-e', TOKEN_HELPER],
    env: [{ name: TOKEN_SOCKET_ENV, value: socket }],
    interactiveMode: 'Never',
    provideClusterInfo: false
  }
}

/** The socket of a kubeconfig user served by the action's token service, when it is one. */
export function tokenSocketOf(user: Pick<User, 'exec'> | undefined): string | undefined {
  const env = (user?.exec as { env?: Array<{ name?: string; value?: string }> } | undefined)?.env
  return env?.find(e => e.name === TOKEN_SOCKET_ENV)?.value || undefined
}

/** Asks the token service on `socket` for a credential. */
export function requestToken(socket: string): Promise<{ token: string; expiresAt: number }> {
  return new Promise((resolve, reject) => {
    const s = net.connect(socket)
    let data = ''
    s.setEncoding('utf8')
    s.on('data', c => (data += c))
    s.on('error', e =>
      reject(
        new Error(
          `cluster token: the action's token service is not reachable (${(e as NodeJS.ErrnoException).code})`
        )
      )
    )
    s.on('end', () => {
      try {
        const a = JSON.parse(data) as TokenAnswer
        if ('error' in a) return reject(new Error(`cluster token: ${a.error}`))
        resolve({
          token: a.credential.status.token,
          expiresAt: Date.parse(a.credential.status.expirationTimestamp)
        })
      } catch {
        reject(new Error("cluster token: no answer from the action's token service"))
      }
    })
  })
}

/**
 * Authenticates the users served by a token socket in-process: the token is asked from the socket
 * (one request at a time) and reused until its expirationTimestamp (which the service sets ahead
 * of the token's real expiry).
 */
type Authenticator = Parameters<KubeConfig['addAuthenticator']>[0]

class SocketTokenAuthenticator implements Authenticator {
  private cached?: { token: string; expiresAt: number }
  private pending?: Promise<{ token: string; expiresAt: number }>

  constructor(
    private readonly userName: string,
    private readonly socket: string
  ) {}

  isAuthProvider(user: User): boolean {
    return user.name === this.userName
  }

  async applyAuthentication(
    _user: User,
    opts: Parameters<Authenticator['applyAuthentication']>[1]
  ): Promise<void> {
    if (!this.cached || this.cached.expiresAt <= Date.now()) {
      this.pending ??= requestToken(this.socket).finally(() => (this.pending = undefined))
      this.cached = await this.pending
    }
    const o = opts as { headers?: Record<string, unknown> }
    o.headers ??= {}
    o.headers.Authorization = `Bearer ${this.cached.token}`
  }
}

/**
 * For the users of `kc` served by the action's token service: ask the socket directly instead of
 * running the exec plugin (a process per token). Other users are left as they are.
 */
export function useTokenSocketsDirectly(kc: KubeConfig): void {
  kc.users = kc.users.map(u => {
    const socket = tokenSocketOf(u)
    if (!socket) return u
    kc.addAuthenticator(new SocketTokenAuthenticator(u.name, socket))
    return { ...u, exec: undefined }
  })
}

/**
 * A user's exec plugin run through client-node's own ExecAuth (its caching and expiry kept), with
 * every credential it returns (the token, a client key) handed to `mask` once, before any request
 * carries it.
 */
class MaskingExecAuthenticator implements Authenticator {
  private readonly exec = new ExecAuth()
  private readonly masked = new Set<string>()

  constructor(
    private readonly user: User,
    private readonly mask: (value: string) => void
  ) {}

  isAuthProvider(user: User): boolean {
    return user.name === this.user.name
  }

  async applyAuthentication(
    _user: User,
    opts: Parameters<Authenticator['applyAuthentication']>[1]
  ): Promise<void> {
    await this.exec.applyAuthentication(this.user, opts as Parameters<ExecAuth['applyAuthentication']>[1])
    const o = opts as { headers?: Record<string, unknown>; key?: unknown }
    const auth = o.headers?.Authorization
    const credentials = [typeof auth === 'string' ? auth.replace(/^Bearer /, '') : undefined, o.key]
    for (const c of credentials)
      if (typeof c === 'string' && c && !this.masked.has(c)) {
        this.masked.add(c)
        this.mask(c)
      }
  }
}

/**
 * For the users of `kc` with an exec plugin other than the action's token service: run it through
 * an authenticator that masks what it returns (client-node's built-in ExecAuth would run it first,
 * so the user's exec entry moves into that authenticator). Other users are left as they are.
 */
export function maskExecCredentials(kc: KubeConfig, mask: (value: string) => void): void {
  kc.users = kc.users.map(u => {
    const plugin = !!u.exec || u.authProvider?.name === 'exec'
    if (!plugin || tokenSocketOf(u)) return u
    kc.addAuthenticator(new MaskingExecAuthenticator(u, mask))
    return { ...u, exec: undefined, authProvider: undefined }
  })
}
