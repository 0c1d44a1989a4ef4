// Cluster credentials on their own: the kubeconfig listed through a fake ARM (user or admin, as the
// SDK hands it back: the kubeconfig's bytes), every token, key and password in it masked, written
// 0600 under the given folder (RUNNER_TEMP, the OS temp folder); ARM's refusals turned into what to
// fix (local accounts disabled, the permission to grant); on an AAD cluster the kubelogin user
// replaced by the exec credential of the run's token service, whose socket answers with a token
// renewed before its margin (the configured one, at most half the token's life), and which leaves
// the last token in the kubeconfig when it stops. Time is Date.now, stubbed.
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals'
import type { AccessToken, TokenCredential } from '@azure/identity'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { parse, stringify } from 'yaml'
import type { ArmClients } from '../../../src/azure/clients.js'
import {
  AKS_SERVER_SCOPE,
  maskKubeconfig,
  removeKubeconfig,
  TokenRefresher,
  writeClusterCredentials
} from '../../../src/azure/credentials.js'
import { tokenExecEntry } from '../../../src/kube/exec-token.js'
import type { Settings } from '../../../src/settings/settings.js'
import { captureLog, type CapturedLog } from '../../support/capture-log.js'
import { armFail } from '../../support/arm-errors.js'
import { rejection } from '../../support/rejection.js'

const T0 = 1_800_000_000_000
const HOUR = 3_600_000
const MIN = 60_000

/** A kubeconfig as AKS returns it for a cluster with local accounts (certificate user). */
function localKubeconfig(): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'aks-1', cluster: { server: 'https://aks-1.hcp.eastus.azmk8s.io:443' } }],
    contexts: [{ name: 'aks-1', context: { cluster: 'aks-1', user: 'clusterUser_rg-1_aks-1' } }],
    'current-context': 'aks-1',
    users: [
      {
        name: 'clusterUser_rg-1_aks-1',
        user: { 'client-certificate-data': 'cert-data', 'client-key-data': 'key-data', token: 'static-token' }
      }
    ]
  })
}

const KUBELOGIN = {
  apiVersion: 'client.authentication.k8s.io/v1beta1',
  command: 'kubelogin',
  args: ['get-token', '--server-id', '6dae42f8-4368-4678-94ff-3960e28e3630', '--login', 'devicecode'],
  interactiveMode: 'IfAvailable',
  provideClusterInfo: false
}

/** A kubeconfig as AKS returns it for an Entra ID cluster: a kubelogin exec user (plus others). */
function aadKubeconfig(): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'aks-1', cluster: { server: 'https://aks-1.hcp.eastus.azmk8s.io:443' } }],
    'current-context': 'aks-1',
    users: [
      { name: 'clusterUser_rg-1_aks-1', user: { exec: KUBELOGIN } },
      { name: 'legacy', user: { 'auth-provider': { name: 'azure', config: { 'apiserver-id': 'x' } } } },
      { name: 'other', user: { token: 'other-token', exec: { command: '/usr/bin/gke-auth' } } },
      { name: 'nothing' }
    ]
  }
}

interface FakeArm {
  clients: ArmClients
  calls: string[]
}

/** ARM's managedClusters as the SDK presents them: list*Credentials, get. */
function fakeArm(
  o: {
    kubeconfig?: string | Uint8Array
    result?: unknown
    listError?: unknown
    cluster?: unknown
    getError?: unknown
  } = {}
): FakeArm {
  const calls: string[] = []
  const list = (what: string) => async (rg: string, name: string) => {
    calls.push(`${what} ${rg}/${name}`)
    if (o.listError) throw o.listError
    if (o.result !== undefined) return o.result
    const v = o.kubeconfig ?? localKubeconfig()
    return {
      kubeconfigs: [{ name: 'clusterUser', value: typeof v === 'string' ? new TextEncoder().encode(v) : v }]
    }
  }
  const clients = {
    containerService: {
      managedClusters: {
        listClusterUserCredentials: list('listClusterUserCredentials'),
        listClusterAdminCredentials: list('listClusterAdminCredentials'),
        get: async (rg: string, name: string) => {
          calls.push(`get ${rg}/${name}`)
          if (o.getError) throw o.getError
          return o.cluster
        }
      }
    }
  } as unknown as ArmClients
  return { clients, calls }
}

const settings = (over: { name?: string; adminCredentials?: boolean } = {}): Settings =>
  ({
    cluster: {
      resourceGroup: 'rg-1',
      name: 'aks-1',
      create: false,
      adminCredentials: false,
      exportKubeconfig: true,
      ...over
    }
  }) as unknown as Settings

/** A credential that hands out `aks-token-N`, valid for `lifetime` from the (stubbed) now. */
function fakeCredential(o: { lifetime?: number; fail?: () => unknown } = {}): TokenCredential & {
  scopes: string[]
} {
  const scopes: string[] = []
  return {
    scopes,
    getToken: async (scope: string | string[]): Promise<AccessToken | null> => {
      scopes.push(String(scope))
      const failure = o.fail?.()
      if (failure !== undefined) throw failure
      return { token: `aks-token-${scopes.length}`, expiresOnTimestamp: Date.now() + (o.lifetime ?? HOUR) }
    }
  }
}

/** What the token service answers on its socket (one connection). */
function ask(socket: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const s = net.connect(socket)
    let data = ''
    s.setEncoding('utf8')
    s.on('data', c => (data += c))
    s.on('error', reject)
    s.on('end', () => resolve(JSON.parse(data)))
  })
}

const modeOf = (file: string) => statSync(file).mode & 0o777
const usersOf = (file: string) => (parse(readFileSync(file, 'utf8')) as { users: unknown[] }).users

let dir: string
let now: number
let savedEnv: NodeJS.ProcessEnv
const refreshers: TokenRefresher[] = []
beforeEach(() => {
  savedEnv = { ...process.env }
  dir = mkdtempSync(path.join(os.tmpdir(), 'cred-'))
  now = T0
  jest.spyOn(Date, 'now').mockImplementation(() => now)
})
afterEach(() => {
  for (const r of refreshers.splice(0)) r.stop()
  jest.restoreAllMocks()
  for (const k of Object.keys(process.env)) if (!(k in savedEnv)) delete process.env[k]
  Object.assign(process.env, savedEnv)
  rmSync(dir, { recursive: true, force: true })
})

describe('maskKubeconfig', () => {
  it('masks each token, key, certificate and password; nothing else, nothing empty', () => {
    const masked: string[] = []
    maskKubeconfig(
      {
        users: [
          {
            name: 'a',
            user: {
              password: 'p1',
              token: 't1',
              username: 'u1',
              'client-certificate-data': 'c1',
              'client-key-data': 'k1'
            }
          },
          { name: 'b' },
          { name: 'c', user: { token: '', password: 7 } }
        ]
      },
      s => void masked.push(s)
    )
    expect(masked).toEqual(['t1', 'k1', 'c1', 'p1'])
    maskKubeconfig({}, s => void masked.push(s))
    expect(masked).toHaveLength(4)
  })
})

describe('writeClusterCredentials: a cluster with local accounts', () => {
  it('writes the user kubeconfig as ARM returned it (0600, named after the cluster), masked', async () => {
    const arm = fakeArm()
    const log = captureLog()
    const masked: string[] = []
    const r = await writeClusterCredentials(arm.clients, settings({ name: 'aks_1.x' }), fakeCredential(), {
      log,
      mask: s => void masked.push(s),
      dir
    })
    expect(arm.calls).toEqual(['listClusterUserCredentials rg-1/aks_1.x'])
    expect(r).toEqual({ path: r.path, kind: 'user', aad: false })
    expect(path.dirname(r.path)).toBe(dir)
    expect(path.basename(r.path)).toMatch(/^kubeconfig-aks-1-x-[0-9a-f]{8}$/)
    expect(readFileSync(r.path, 'utf8')).toBe(localKubeconfig())
    expect(modeOf(r.path)).toBe(0o600)
    expect(readdirSync(dir)).toEqual([path.basename(r.path)])
    expect(masked).toEqual(['static-token', 'key-data', 'cert-data'])
    expect(log.lines).toEqual(['info: cluster credentials rg-1/aks_1.x: user kubeconfig written (mode 0600)'])
    expect(log.text()).not.toMatch(/static-token|key-data|cert-data/)
  })

  it('admin credentials when asked; secrets to the log’s secret(); RUNNER_TEMP by default', async () => {
    const arm = fakeArm()
    const secrets: string[] = []
    const log: CapturedLog = Object.assign(captureLog(), { secret: (s: string) => void secrets.push(s) })
    process.env.RUNNER_TEMP = dir
    const r = await writeClusterCredentials(
      arm.clients,
      settings({ adminCredentials: true }),
      fakeCredential(),
      {
        log
      }
    )
    expect(arm.calls).toEqual(['listClusterAdminCredentials rg-1/aks-1'])
    expect(r.kind).toBe('admin')
    expect(path.dirname(r.path)).toBe(dir)
    expect(secrets).toEqual(['static-token', 'key-data', 'cert-data'])
    expect(log.lines).toEqual(['info: cluster credentials rg-1/aks-1: admin kubeconfig written (mode 0600)'])
  })

  it('the OS temp folder without RUNNER_TEMP; a kubeconfig without users is written as it is', async () => {
    delete process.env.RUNNER_TEMP
    jest.spyOn(os, 'tmpdir').mockReturnValue(dir)
    const r = await writeClusterCredentials(
      fakeArm({ kubeconfig: '# empty\n' }).clients,
      settings(),
      fakeCredential(),
      { log: captureLog() }
    )
    expect(path.dirname(r.path)).toBe(dir)
    expect(readFileSync(r.path, 'utf8')).toBe('# empty\n')
    expect(r.aad).toBe(false)
  })

  it('no kubeconfig, or not YAML: said so', async () => {
    const step = 'cluster credentials rg-1/aks-1'
    for (const result of [
      {},
      { kubeconfigs: [] },
      { kubeconfigs: [{ name: 'x' }] },
      { kubeconfigs: [{ value: new Uint8Array() }] }
    ]) {
      const e = await rejection(
        writeClusterCredentials(fakeArm({ result }).clients, settings(), fakeCredential(), {
          log: captureLog(),
          dir
        })
      )
      expect(e.message).toBe(`${step}: ARM returned no kubeconfig`)
    }
    const e = await rejection(
      writeClusterCredentials(
        fakeArm({ kubeconfig: 'users: [\n  - a: b: c' }).clients,
        settings(),
        fakeCredential(),
        {
          log: captureLog(),
          dir
        }
      )
    )
    expect(e.message).toBe(`${step}: the kubeconfig ARM returned is not valid YAML`)
    expect(readdirSync(dir)).toEqual([])
  })
})

describe('writeClusterCredentials: ARM refuses', () => {
  const run = (arm: FakeArm, adminCredentials: boolean) =>
    rejection(
      writeClusterCredentials(arm.clients, settings({ adminCredentials }), fakeCredential(), {
        log: captureLog(),
        dir
      })
    )
  const LOCAL_OFF =
    'cluster credentials rg-1/aks-1: admin credentials are unavailable because the cluster has local accounts disabled (AAD-only). Set admin-credentials: false; the action then signs in to the cluster with its own Entra identity, which needs a Kubernetes RBAC role (e.g. Azure Kubernetes Service RBAC Cluster Admin).'

  it('a 403 other than AuthorizationFailed: the action to grant (user, admin)', async () => {
    const denied = () =>
      armFail(
        403,
        'LinkedAuthorizationFailed',
        'The client has permission to perform action on the linked scope only.'
      )
    const user = fakeArm({ listError: denied() })
    expect((await run(user, false)).message).toBe(
      'cluster credentials rg-1/aks-1: listing user credentials failed: HTTP 403 LinkedAuthorizationFailed: The client has permission to perform action on the linked scope only. (the identity needs Microsoft.ContainerService/managedClusters/listClusterUserCredential/action)'
    )
    expect(user.calls).toEqual(['listClusterUserCredentials rg-1/aks-1'])
    const admin = fakeArm({ listError: denied(), cluster: { disableLocalAccounts: false } })
    expect((await run(admin, true)).message).toBe(
      'cluster credentials rg-1/aks-1: listing admin credentials failed: HTTP 403 LinkedAuthorizationFailed: The client has permission to perform action on the linked scope only. (the identity needs Microsoft.ContainerService/managedClusters/listClusterAdminCredential/action)'
    )
    expect(admin.calls).toEqual(['listClusterAdminCredentials rg-1/aks-1', 'get rg-1/aks-1'])
  })

  it('AuthorizationFailed carries its own hint; another status none', async () => {
    for (const code of ['AuthorizationFailed', 'authorizationfailed']) {
      const e = await run(
        fakeArm({
          listError: armFail(
            403,
            code,
            "The client 'x' with object id 'y' does not have authorization to perform action 'Microsoft.ContainerService/managedClusters/listClusterUserCredential/action' over scope '/subscriptions/s/resourceGroups/rg-1/providers/Microsoft.ContainerService/managedClusters/aks-1' or the scope is invalid."
          )
        }),
        false
      )
      expect(e.message).toMatch(
        new RegExp(
          `^cluster credentials rg-1/aks-1: listing user credentials failed: HTTP 403 ${code}: The client 'x'`
        )
      )
      expect(e.message).not.toContain('(the identity needs')
    }
    // Another status (here a conflict) gets no hint of its own.
    const other = await run(
      fakeArm({
        listError: armFail(
          409,
          'OperationNotAllowed',
          'Operation is not allowed: the cluster is being deleted.'
        )
      }),
      false
    )
    expect(other.message).toBe(
      'cluster credentials rg-1/aks-1: listing user credentials failed: HTTP 409 OperationNotAllowed: Operation is not allowed: the cluster is being deleted.'
    )
    // A 404 for the cluster itself says the cluster does not exist, and how to create it.
    const nf = await run(
      fakeArm({
        listError: armFail(
          404,
          'ResourceNotFound',
          "The Resource 'Microsoft.ContainerService/managedClusters/aks-1' under resource group 'rg-1' was not found."
        )
      }),
      false
    )
    expect(nf.name).toBe('ClusterNotFoundError')
    expect(nf.message).toContain('cluster rg-1/aks-1 does not exist')
    expect(nf.message).toContain('create-cluster: true')
    expect(nf.message).not.toContain('undefined')
  })

  it('admin credentials of a cluster with local accounts disabled: from ARM’s message, without a read', async () => {
    const arm = fakeArm({
      listError: armFail(
        400,
        'BadRequest',
        'Getting static credential is not allowed because this cluster is set to disable local accounts.'
      )
    })
    expect((await run(arm, true)).message).toBe(
      `${LOCAL_OFF} (HTTP 400 BadRequest: Getting static credential is not allowed because this cluster is set to disable local accounts.)`
    )
    expect(arm.calls).toEqual(['listClusterAdminCredentials rg-1/aks-1'])
    // The same words for the user credentials are just the failure.
    const user = fakeArm({ listError: armFail(400, 'BadRequest', 'local accounts are disabled') })
    expect((await run(user, false)).message).toBe(
      'cluster credentials rg-1/aks-1: listing user credentials failed: HTTP 400 BadRequest: local accounts are disabled'
    )
    expect(user.calls).toEqual(['listClusterUserCredentials rg-1/aks-1'])
  })

  it('admin credentials refused otherwise: the cluster read says whether local accounts are off', async () => {
    const refusal = () => armFail(400, 'BadRequest', 'Getting static credential is not allowed.')
    const off = fakeArm({ listError: refusal(), cluster: { disableLocalAccounts: true } })
    expect((await run(off, true)).message).toBe(
      `${LOCAL_OFF} (HTTP 400 BadRequest: Getting static credential is not allowed.)`
    )
    expect(off.calls).toEqual(['listClusterAdminCredentials rg-1/aks-1', 'get rg-1/aks-1'])
    const generic =
      'cluster credentials rg-1/aks-1: listing admin credentials failed: HTTP 400 BadRequest: Getting static credential is not allowed.'
    for (const o of [
      { cluster: { disableLocalAccounts: false } },
      { cluster: {} },
      { cluster: undefined },
      { getError: armFail(404, 'ResourceNotFound', 'gone') }
    ]) {
      const arm = fakeArm({ listError: refusal(), ...o })
      expect((await run(arm, true)).message).toBe(generic)
      expect(arm.calls).toEqual(['listClusterAdminCredentials rg-1/aks-1', 'get rg-1/aks-1'])
    }
  })
})

describe('writeClusterCredentials: an Entra ID (AAD) cluster', () => {
  it('serves the AKS token on a socket; the kubelogin users ask it; stop leaves the last token', async () => {
    const arm = fakeArm({ kubeconfig: stringify(aadKubeconfig()) })
    const credential = fakeCredential()
    const log = captureLog()
    const masked: string[] = []
    const r = await writeClusterCredentials(arm.clients, settings(), credential, {
      log,
      mask: s => void masked.push(s),
      dir
    })
    refreshers.push(r.refresher!)
    expect(r).toMatchObject({ kind: 'user', aad: true })
    expect(credential.scopes).toEqual([AKS_SERVER_SCOPE])
    expect(AKS_SERVER_SCOPE).toBe('6dae42f8-4368-4678-94ff-3960e28e3630/.default')
    expect(masked).toEqual(['other-token', 'aks-token-1'])
    expect(log.lines).toEqual([
      'debug: cluster credentials: AKS token renewed, valid for 3600 s',
      'info: cluster credentials rg-1/aks-1: AAD cluster; kubelogin user replaced by an exec credential that gets Entra tokens for the AKS server app from this run (renewed before expiry), written with mode 0600'
    ])
    const socket = r.refresher!.socket!
    expect(path.dirname(path.dirname(socket))).toBe(dir)
    expect(path.basename(path.dirname(socket))).toMatch(/^aks-rdma-token-/)
    expect(path.basename(socket)).toBe('s')
    expect(modeOf(r.path)).toBe(0o600)
    const exec = tokenExecEntry(socket)
    expect(usersOf(r.path)).toEqual([
      { name: 'clusterUser_rg-1_aks-1', user: { exec } },
      { name: 'legacy', user: { exec } },
      { name: 'other', user: { token: 'other-token', exec: { command: '/usr/bin/gke-auth' } } },
      { name: 'nothing' }
    ])
    expect(readdirSync(dir).filter(f => f.endsWith('.tmp'))).toEqual([])

    expect(await ask(socket)).toEqual({
      credential: {
        apiVersion: 'client.authentication.k8s.io/v1',
        kind: 'ExecCredential',
        status: { token: 'aks-token-1', expirationTimestamp: new Date(T0 + HOUR - 5 * MIN).toISOString() }
      }
    })
    expect(credential.scopes).toHaveLength(1)

    r.refresher!.stop()
    expect(r.refresher!.socket).toBeUndefined()
    expect(existsSync(path.dirname(socket))).toBe(false)
    expect(usersOf(r.path)).toEqual([
      { name: 'clusterUser_rg-1_aks-1', user: { token: 'aks-token-1' } },
      { name: 'legacy', user: { token: 'aks-token-1' } },
      { name: 'other', user: { token: 'other-token', exec: { command: '/usr/bin/gke-auth' } } },
      { name: 'nothing' }
    ])
    expect(modeOf(r.path)).toBe(0o600)

    removeKubeconfig(r.path, log)
    expect(existsSync(r.path)).toBe(false)
    expect(log.lines.at(-1)).toBe('info: cluster credentials: kubeconfig removed')
  })

  it('the configured renewal margin shapes the answer', async () => {
    const r = await writeClusterCredentials(
      fakeArm({ kubeconfig: stringify(aadKubeconfig()) }).clients,
      settings(),
      fakeCredential(),
      { log: captureLog(), dir, refreshMarginMs: MIN }
    )
    refreshers.push(r.refresher!)
    expect(await ask(r.refresher!.socket!)).toMatchObject({
      credential: { status: { expirationTimestamp: new Date(T0 + HOUR - MIN).toISOString() } }
    })
  })

  it('no token for the AKS server application: said so, nothing served', async () => {
    const step =
      'cluster credentials rg-1/aks-1: the cluster uses Entra ID (AAD) and getting a token for the AKS server application failed:'
    const cases: Array<[TokenCredential, string]> = [
      [
        fakeCredential({ fail: () => new Error('AADSTS50105: not assigned') }),
        `${step} AADSTS50105: not assigned`
      ],
      [fakeCredential({ fail: () => 'plain refusal' }), `${step} plain refusal`],
      [
        { getToken: async () => null },
        `${step} cluster credentials: Entra returned no token for the AKS server application`
      ],
      [
        { getToken: async () => ({ token: '', expiresOnTimestamp: T0 + HOUR }) },
        `${step} cluster credentials: Entra returned no token for the AKS server application`
      ]
    ]
    for (const [credential, message] of cases) {
      const e = await rejection(
        writeClusterCredentials(
          fakeArm({ kubeconfig: stringify(aadKubeconfig()) }).clients,
          settings(),
          credential,
          {
            log: captureLog(),
            dir
          }
        )
      )
      expect(e.message).toBe(message)
    }
    expect(readdirSync(dir)).toEqual([])
  })
})

describe('TokenRefresher', () => {
  function refresher(
    credential: TokenCredential,
    o: { marginMs?: number; log?: CapturedLog; masked?: string[]; file?: string } = {}
  ): { r: TokenRefresher; file: string } {
    const file = o.file ?? path.join(dir, 'kubeconfig')
    const r = new TokenRefresher(
      credential,
      file,
      aadKubeconfig() as never,
      ['clusterUser_rg-1_aks-1'],
      s => void o.masked?.push(s),
      o.log ?? captureLog(),
      o.marginMs
    )
    refreshers.push(r)
    return { r, file }
  }

  it('renews once only the margin (5 min by default) is left', async () => {
    const credential = fakeCredential()
    const masked: string[] = []
    const { r } = refresher(credential, { masked })
    expect(await r.refresh()).toBe(true)
    expect(await r.refresh()).toBe(false)
    now = T0 + HOUR - 5 * MIN - 1
    expect(await r.refresh()).toBe(false)
    expect(await r.token()).toBe('aks-token-1')
    now = T0 + HOUR - 5 * MIN
    expect(await r.refresh()).toBe(true)
    expect(credential.scopes).toEqual([AKS_SERVER_SCOPE, AKS_SERVER_SCOPE])
    expect(await r.token()).toBe('aks-token-2')
    expect(await r.refresh(true)).toBe(true)
    expect(masked).toEqual(['aks-token-1', 'aks-token-2', 'aks-token-3'])
  })

  it('a short-lived token: the margin is half its life', async () => {
    const credential = fakeCredential({ lifetime: 4 * MIN })
    const { r } = refresher(credential, { marginMs: 10 * MIN })
    await r.refresh()
    now = T0 + 2 * MIN - 1
    expect(await r.refresh()).toBe(false)
    now = T0 + 2 * MIN
    expect(await r.refresh()).toBe(true)
    expect(credential.scopes).toHaveLength(2)
  })

  it('the life counts from when the token was asked for; an already expired one is renewed each time', async () => {
    // Entra answers after 10 s: the token's life counted from the request is 4 min.
    const slow: TokenCredential = {
      getToken: async () => {
        const asked = Date.now()
        now += 10_000
        return { token: 'slow', expiresOnTimestamp: asked + 4 * MIN }
      }
    }
    const log = captureLog()
    const { r } = refresher(slow, { marginMs: 10 * MIN, log })
    await r.refresh()
    expect(log.lines).toEqual(['debug: cluster credentials: AKS token renewed, valid for 230 s'])
    now = T0 + 2 * MIN - 1
    expect(await r.refresh()).toBe(false)
    now = T0 + 2 * MIN
    expect(await r.refresh()).toBe(true)

    let n = 0
    const expired: TokenCredential = {
      getToken: async () => ({ token: `old-${++n}`, expiresOnTimestamp: Date.now() - 1000 })
    }
    const e = refresher(expired).r
    await e.refresh()
    expect(await e.refresh()).toBe(true)
    expect(await e.token()).toBe('old-3')
  })

  it('concurrent renewals share one request', async () => {
    let release!: () => void
    const gate = new Promise<void>(r => (release = r))
    let calls = 0
    const credential: TokenCredential = {
      getToken: async () => {
        calls++
        await gate
        return { token: `t-${calls}`, expiresOnTimestamp: T0 + HOUR }
      }
    }
    const { r } = refresher(credential)
    const both = Promise.all([r.refresh(true), r.refresh(true), r.token()])
    release()
    expect(await both).toEqual([true, true, 't-1'])
    expect(calls).toBe(1)
    expect(await r.refresh(true)).toBe(true)
    expect(calls).toBe(2)
  })

  it('serves once (idempotent); a failed renewal is answered as an error on the socket', async () => {
    let fail: unknown
    const credential = fakeCredential({ fail: () => fail })
    const { r, file } = refresher(credential)
    expect(r.socket).toBeUndefined()
    await r.refresh()
    await r.serve(dir)
    const socket = r.socket!
    const written = readFileSync(file, 'utf8')
    await r.serve(dir)
    expect(r.socket).toBe(socket)
    expect(readdirSync(dir).filter(f => f.startsWith('aks-rdma-token-'))).toHaveLength(1)
    expect(readFileSync(file, 'utf8')).toBe(written)

    // A client that hangs up before the answer does not stop the service.
    await new Promise<void>(resolve => {
      const c = net.connect(socket, () => {
        c.destroy()
        resolve()
      })
    })
    await new Promise(r => setTimeout(r, 5))
    expect(await ask(socket)).toMatchObject({ credential: { status: { token: 'aks-token-1' } } })

    now = T0 + HOUR
    fail = new Error('AADSTS700024: expired')
    expect(await ask(socket)).toEqual({
      error: 'getting a token for the AKS server application failed: AADSTS700024: expired'
    })
    fail = 'no network'
    expect(await ask(socket)).toEqual({
      error: 'getting a token for the AKS server application failed: no network'
    })
    fail = undefined
    expect(await ask(socket)).toMatchObject({ credential: { status: { token: 'aks-token-4' } } })
  })

  it('stop: no token yet or no kubeconfig any more, nothing is written', async () => {
    const { r, file } = refresher(fakeCredential())
    await r.serve(dir)
    const served = readFileSync(file, 'utf8')
    r.stop()
    expect(readFileSync(file, 'utf8')).toBe(served)
    expect(readdirSync(dir)).toEqual(['kubeconfig'])

    const other = refresher(fakeCredential(), { file: path.join(dir, 'k2') }).r
    await other.refresh()
    await other.serve(dir)
    rmSync(path.join(dir, 'k2'))
    other.stop()
    expect(existsSync(path.join(dir, 'k2'))).toBe(false)
    other.stop()
  })

  it('the socket’s folder: under the given one while its path fits 100 bytes, else the OS temp folder', async () => {
    const base = mkdtempSync(path.join(dir, 'b'))
    // socket = <folder>/aks-rdma-token-XXXXXX/s: the folder's length plus 24 bytes.
    const fits = path.join(base, 'a'.repeat(76 - base.length - 1))
    const long = path.join(base, 'b'.repeat(77 - base.length - 1))
    const tmp = path.join(dir, 'tmp')
    for (const d of [fits, long, tmp]) mkdirSync(d)
    const tmpdir = jest.spyOn(os, 'tmpdir').mockReturnValue(tmp)
    const a = refresher(fakeCredential()).r
    await a.serve(fits)
    expect(Buffer.byteLength(a.socket!)).toBe(100)
    expect(path.dirname(path.dirname(a.socket!))).toBe(fits)
    const b = refresher(fakeCredential(), { file: path.join(dir, 'k2') }).r
    await b.serve(long)
    expect(path.dirname(path.dirname(b.socket!))).toBe(tmp)
    expect(readdirSync(long)).toEqual([])

    tmpdir.mockReturnValue(long)
    const c = refresher(fakeCredential(), { file: path.join(dir, 'k3') }).r
    await expect(c.serve(long)).rejects.toThrow(
      'cluster credentials: no folder with a short enough path for the token socket'
    )
    expect(readdirSync(long)).toEqual([])
    expect(c.socket).toBeUndefined()
  })
})

describe('TokenRefresher on Windows', () => {
  it('listens on a named pipe, with no folder to make or remove', async () => {
    // Only the name is Windows': on this host the "pipe" is a socket file in the working directory,
    // so the test works in its own folder and restores both.
    const cwd = process.cwd()
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')!
    Object.defineProperty(process, 'platform', { value: 'win32', configurable: true })
    process.chdir(dir)
    try {
      const r = new TokenRefresher(
        fakeCredential(),
        path.join(dir, 'kubeconfig'),
        aadKubeconfig() as never,
        ['clusterUser_rg-1_aks-1'],
        () => undefined,
        captureLog()
      )
      await r.refresh()
      await r.serve(dir)
      expect(r.socket).toMatch(/^\\\\\.\\pipe\\aks-rdma-action-token-[0-9a-f]{16}$/)
      expect(await ask(r.socket!)).toMatchObject({ credential: { status: { token: 'aks-token-1' } } })
      expect(readdirSync(dir).filter(f => f.startsWith('aks-rdma-token-'))).toEqual([])
      r.stop()
      expect((usersOf(path.join(dir, 'kubeconfig'))[0] as { user: unknown }).user).toEqual({
        token: 'aks-token-1'
      })
    } finally {
      process.chdir(cwd)
      Object.defineProperty(process, 'platform', platform)
    }
  })
})

describe('removeKubeconfig', () => {
  it('only a file that exists, and says so', () => {
    const log = captureLog()
    removeKubeconfig(undefined, log)
    removeKubeconfig(path.join(dir, 'absent'), log)
    expect(log.lines).toEqual([])
    const file = path.join(dir, 'kubeconfig')
    writeFileSync(file, 'x')
    removeKubeconfig(file, log)
    expect(existsSync(file)).toBe(false)
    expect(log.lines).toEqual(['info: cluster credentials: kubeconfig removed'])
  })
})
