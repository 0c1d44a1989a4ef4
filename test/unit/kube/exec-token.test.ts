// The kubeconfig exec credential served by the running action: the exec entry, finding its socket
// in a kubeconfig user, asking the token service over a real local socket (answer, refusal, no
// answer, nobody listening), the helper script client-go runs (as a real `node -e` process), and
// the in-process authenticator that asks the socket once per token lifetime; another exec plugin's
// token and key masked before use (a real `node -e` plugin).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { KubeConfig } from '@kubernetes/client-node'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  EXEC_CREDENTIAL_API,
  maskExecCredentials,
  requestToken,
  TOKEN_HELPER,
  TOKEN_SOCKET_ENV,
  tokenExecEntry,
  tokenSocketOf,
  useTokenSocketsDirectly
} from '../../../src/kube/exec-token.js'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'exec-token-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A token service on a fresh socket answering `answer()` (raw text) to each connection. */
async function service(
  answer: () => string
): Promise<{ socket: string; asked: () => number; close: () => void }> {
  const socket = path.join(dir, `s${Math.random().toString(36).slice(2, 8)}.sock`)
  let asked = 0
  const server = net.createServer(c => {
    asked++
    c.end(answer())
  })
  await new Promise<void>(resolve => server.listen(socket, resolve))
  return { socket, asked: () => asked, close: () => server.close() }
}

const credential = (token: string, expires: Date) =>
  JSON.stringify({
    credential: {
      apiVersion: EXEC_CREDENTIAL_API,
      kind: 'ExecCredential',
      status: { token, expirationTimestamp: expires.toISOString() }
    }
  })

describe('the exec entry', () => {
  it('runs node with the helper script and names the socket in its environment', () => {
    const entry = tokenExecEntry('/run/x/token.sock', '/usr/bin/node')
    expect(entry).toEqual({
      apiVersion: 'client.authentication.k8s.io/v1',
      command: '/usr/bin/node',
      args: ['-e', TOKEN_HELPER],
      env: [{ name: 'AKS_RDMA_ACTION_TOKEN_SOCKET', value: '/run/x/token.sock' }],
      interactiveMode: 'Never',
      provideClusterInfo: false
    })
    expect(tokenExecEntry('/s').command).toBe(process.execPath)
  })
  it('finds the socket of a user served by the action, and none of any other user', () => {
    expect(tokenSocketOf({ exec: tokenExecEntry('/run/x/token.sock') })).toBe('/run/x/token.sock')
    expect(
      tokenSocketOf({ exec: { command: 'kubelogin', env: [{ name: 'OTHER', value: 'x' }] } })
    ).toBeUndefined()
    expect(
      tokenSocketOf({ exec: { command: 'x', env: [{ name: TOKEN_SOCKET_ENV, value: '' }] } })
    ).toBeUndefined()
    expect(tokenSocketOf({ exec: undefined })).toBeUndefined()
    expect(tokenSocketOf(undefined)).toBeUndefined()
  })
})

describe('requestToken', () => {
  it('reads the credential the service answers', async () => {
    const expires = new Date('2030-01-01T00:00:00Z')
    const s = await service(() => credential('tok-1', expires))
    await expect(requestToken(s.socket)).resolves.toEqual({ token: 'tok-1', expiresAt: expires.getTime() })
    s.close()
  })
  it("passes on the service's refusal, and says when it gives no answer", async () => {
    const refusing = await service(() => JSON.stringify({ error: 'Entra refused the token request' }))
    await expect(requestToken(refusing.socket)).rejects.toThrow(
      'cluster token: Entra refused the token request'
    )
    refusing.close()
    const silent = await service(() => '')
    await expect(requestToken(silent.socket)).rejects.toThrow(
      "cluster token: no answer from the action's token service"
    )
    silent.close()
  })
  it('says the service is not reachable when nothing listens', async () => {
    await expect(requestToken(path.join(dir, 'gone.sock'))).rejects.toThrow(
      "cluster token: the action's token service is not reachable (ENOENT)"
    )
  })
})

describe('the helper script client-go runs', () => {
  /** Runs the script as client-go does (asynchronously: the service answers from this process). */
  const run = (socket: string) =>
    new Promise<{ status: number; stdout: string; stderr: string }>(resolve =>
      execFile(
        process.execPath,
        ['-e', TOKEN_HELPER],
        { env: { PATH: process.env.PATH, [TOKEN_SOCKET_ENV]: socket }, encoding: 'utf8' },
        (e, stdout, stderr) => resolve({ status: e ? Number(e.code) : 0, stdout, stderr })
      )
    )
  it('prints the ExecCredential and exits 0', async () => {
    const s = await service(() => credential('tok-2', new Date('2030-01-01T00:00:00Z')))
    const r = await run(s.socket)
    s.close()
    expect(r.status).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({
      apiVersion: EXEC_CREDENTIAL_API,
      kind: 'ExecCredential',
      status: { token: 'tok-2', expirationTimestamp: '2030-01-01T00:00:00.000Z' }
    })
  })
  it('exits 1 with the reason on stderr when the run that wrote the kubeconfig has ended', async () => {
    const r = await run(path.join(dir, 'ended.sock'))
    expect(r.status).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(
      'aks-rdma-action token: the action run that wrote this kubeconfig is not serving tokens any more (ENOENT); run it again for a new one\n'
    )
  })
})

describe('useTokenSocketsDirectly', () => {
  function kubeconfig(socket: string): KubeConfig {
    const kc = new KubeConfig()
    kc.loadFromOptions({
      clusters: [{ name: 'aks', server: 'https://aks.example:443' }],
      users: [
        { name: 'served', exec: tokenExecEntry(socket) },
        { name: 'other', token: 'static-token' }
      ],
      contexts: [
        { name: 'served', cluster: 'aks', user: 'served' },
        { name: 'other', cluster: 'aks', user: 'other' }
      ],
      currentContext: 'served'
    })
    return kc
  }

  it('asks the socket instead of running the plugin, once while the token is valid, again once expired', async () => {
    let expires = new Date(Date.now() + 3_600_000)
    let n = 0
    const s = await service(() => credential(`tok-${++n}`, expires))
    const kc = kubeconfig(s.socket)
    useTokenSocketsDirectly(kc)
    expect(kc.getUser('served')?.exec).toBeUndefined()
    expect(kc.getUser('other')?.token).toBe('static-token')

    const headers = async () => {
      const opts: { headers?: Record<string, string> } = {}
      await kc.applyToHTTPSOptions(opts as never)
      return opts.headers?.Authorization
    }
    expect(await headers()).toBe('Bearer tok-1')
    expect(await headers()).toBe('Bearer tok-1')
    expect(s.asked()).toBe(1)

    const both = await Promise.all([headers(), headers()])
    expect(both).toEqual(['Bearer tok-1', 'Bearer tok-1'])
    expect(s.asked()).toBe(1)

    // A service answering tokens already expired is asked again for every request.
    expires = new Date(Date.now() - 1000)
    const fresh = kubeconfig(s.socket)
    useTokenSocketsDirectly(fresh)
    const o1: { headers?: Record<string, string> } = {}
    await fresh.applyToHTTPSOptions(o1 as never)
    const o2: { headers?: Record<string, string> } = {}
    await fresh.applyToHTTPSOptions(o2 as never)
    expect([o1.headers?.Authorization, o2.headers?.Authorization]).toEqual(['Bearer tok-2', 'Bearer tok-3'])
    expect(s.asked()).toBe(3)
    s.close()
  })

  it('leaves a kubeconfig without a served user as it was', () => {
    const kc = new KubeConfig()
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://c:443' }],
      users: [{ name: 'u', exec: { command: 'kubelogin', args: ['get-token'] } }],
      contexts: [{ name: 'c', cluster: 'c', user: 'u' }],
      currentContext: 'c'
    })
    const before = kc.users
    useTokenSocketsDirectly(kc)
    expect(kc.users).toEqual(before)
    expect(kc.getUser('u')?.exec).toEqual({ command: 'kubelogin', args: ['get-token'] })
  })
})

describe('maskExecCredentials', () => {
  /** A kubeconfig whose user runs a real exec plugin (node -e) answering `credential`'s status. */
  function pluginKubeconfig(status: Record<string, string>, extra: Record<string, unknown> = {}): KubeConfig {
    const kc = new KubeConfig()
    const script = `process.stdout.write(${JSON.stringify(
      JSON.stringify({ apiVersion: EXEC_CREDENTIAL_API, kind: 'ExecCredential', status })
    )})`
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://c:443' }],
      users: [
        {
          name: 'plugin',
          exec: { apiVersion: EXEC_CREDENTIAL_API, command: process.execPath, args: ['-e', script] }
        },
        { name: 'static', token: 'static-token' },
        ...((extra.users as never[]) ?? [])
      ],
      contexts: [{ name: 'c', cluster: 'c', user: 'plugin' }],
      currentContext: 'c'
    })
    return kc
  }

  it('masks the token and key another exec plugin returns, once, before a request carries them', async () => {
    const token = 'plugin-token-7f3a9c1e'
    const key = '-----BEGIN PRIVATE KEY-----\nplugin-key\n-----END PRIVATE KEY-----'
    const kc = pluginKubeconfig({ token, clientKeyData: key })
    const masked: string[] = []
    maskExecCredentials(kc, v => masked.push(v))
    const o1: { headers?: Record<string, string>; key?: string } = {}
    await kc.applyToHTTPSOptions(o1 as never)
    expect(o1.headers?.Authorization).toBe(`Bearer ${token}`)
    expect(o1.key).toBe(key)
    expect(masked).toEqual([token, key])
    // The plugin's credential is cached by ExecAuth (no expiry) and masked only the first time.
    const o2: { headers?: Record<string, string> } = {}
    await kc.applyToHTTPSOptions(o2 as never)
    expect(o2.headers?.Authorization).toBe(`Bearer ${token}`)
    expect(masked).toEqual([token, key])
    // Users without a plugin stay as they were.
    expect(kc.getUser('static')).toMatchObject({ token: 'static-token' })
  })

  it("leaves the action's own token-socket users to useTokenSocketsDirectly", () => {
    const kc = new KubeConfig()
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://c:443' }],
      users: [{ name: 'aad', exec: tokenExecEntry('/tmp/none.sock') as never }],
      contexts: [{ name: 'c', cluster: 'c', user: 'aad' }],
      currentContext: 'c'
    })
    maskExecCredentials(kc, () => {})
    expect(tokenSocketOf(kc.getUser('aad') ?? undefined)).toBe('/tmp/none.sock')
  })
})
