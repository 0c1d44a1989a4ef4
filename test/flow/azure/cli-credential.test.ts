// `auth-type: cli` against the simulator: the world puts an `az` stand-in first on PATH (the shipped
// bundle's `__az`), signed out. It answers as the Azure CLI answers @azure/identity's real
// AzureCliCredential (`az account get-access-token --output json --resource R [--tenant T]`: the
// JSON shape, `expiresOn` in local time, `expires_on` in epoch seconds; signed out, the message the
// credential turns into "run az login") and as azure/login drives it (`az version`, `az cloud set`,
// `az login --service-principal` with a secret or a GitHub OIDC token, `az account set`). Then the
// action's main and post steps run as the runner runs them after azure/login, signing in through it.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { AzureCliCredential } from '@azure/identity'
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { request } from 'node:https'
import { createCredential } from '../../../src/azure/auth.js'
import { silentLog } from '../../../src/log/index.js'
import { runAction } from '../../../sim/run-action.js'
import type { World } from '../../../sim/world.js'
import { bundlePath, shippedDist } from '../../support/dist.js'
import { startFlowWorld } from '../../support/runner-env.js'

jest.setTimeout(240_000)

const ARM = 'https://management.azure.com'
let world: World
const savedEnv = { ...process.env }

interface AzResult {
  code: number
  stdout: string
  stderr: string
}

/** The environment of a step after the world's: nothing of the runner's inputs or state. */
function stepEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(savedEnv)) if (!/^(INPUT_|STATE_|GITHUB_)/.test(k)) env[k] = v
  return { ...env, ...world.env() }
}

/** Runs the `az` the world put on PATH, as a step's script would. */
function az(args: string[]): Promise<AzResult> {
  return new Promise(resolve =>
    execFile('az', args, { env: stepEnv() }, (e, stdout, stderr) =>
      resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, stdout, stderr })
    )
  )
}

/** A GitHub OIDC token from the world (what azure/login asks the runner for). */
function githubIdToken(): Promise<string> {
  const url = `${world.azure.oidcRequestUrl}&audience=${encodeURIComponent('api://AzureADTokenExchange')}`
  return new Promise((resolve, reject) =>
    request(
      url,
      { headers: { authorization: `Bearer ${world.azure.oidcRequestToken}` }, ca: world.tls.caPem },
      res => {
        let body = ''
        res.on('data', c => (body += c))
        res.on('end', () => resolve(JSON.parse(body).value))
      }
    )
      .on('error', reject)
      .end()
  )
}

const a = () => world.scenario.azure

beforeAll(async () => {
  // Simulated lifetimes long enough for child processes at its time scale (0.002).
  world = await startFlowWorld(
    { azure: { tokens: { oidcLifetime: '1000h' } } },
    { azCommand: [process.execPath, bundlePath('cli'), '__az'] }
  )
  // AzureCliCredential runs `az` from this process's PATH, with this process's environment.
  Object.assign(process.env, stepEnv())
})

afterAll(async () => {
  process.env = { ...savedEnv }
  await world?.close()
})

describe('the az stand-in answers as the Azure CLI', () => {
  it('signed out: the error AzureCliCredential turns into "run az login"', async () => {
    const r = await az(['account', 'get-access-token', '--output', 'json', '--resource', ARM])
    expect(r).toEqual({ code: 1, stdout: '', stderr: "ERROR: Please run 'az login' to setup account.\n" })
    const e = await new AzureCliCredential().getToken(`${ARM}/.default`).catch(x => x)
    expect(e.name).toBe('CredentialUnavailableError')
    expect(e.message).toMatch(/Please run 'az login' from a command prompt/)
    // The action's own credential says what to do.
    const { credential } = createCredential(
      {
        authType: 'cli',
        tenantId: a().tenantId,
        audience: 'api://AzureADTokenExchange',
        environment: 'AzureCloud',
        armEndpoint: world.azure.armEndpoint,
        authorityHost: world.azure.authorityHost
      },
      silentLog,
      { env: { GITHUB_ACTIONS: 'true' } }
    )
    await expect(credential.getToken(`${ARM}/.default`)).rejects.toThrow(
      /auth-type cli: the Azure CLI is not signed in\. Run azure\/login before this step/
    )
  })

  it('signs in as azure/login does, with a secret or a GitHub OIDC token, and hands out tokens', async () => {
    expect(JSON.parse((await az(['version'])).stdout)['azure-cli']).toMatch(/^2\.\d+\.\d+$/)
    expect((await az(['cloud', 'set', '-n', 'azurecloud'])).code).toBe(0)
    const login = ['login', '--service-principal', '--username', a().clientId, '--tenant', a().tenantId]
    // A wrong secret fails at login, with Entra's code.
    const wrong = await az([...login, '--password=not-the-secret'])
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toMatch(/^ERROR: AADSTS7000215: Invalid client secret provided/)

    const ok = await az([...login, `--password=${a().clientSecret}`])
    expect(ok.code).toBe(0)
    expect(JSON.parse(ok.stdout)).toEqual([
      expect.objectContaining({
        id: a().subscriptionId,
        tenantId: a().tenantId,
        cloudName: 'AzureCloud',
        isDefault: true,
        user: { name: a().clientId, type: 'servicePrincipal' }
      })
    ])
    expect((await az(['account', 'set', '--subscription', a().subscriptionId])).code).toBe(0)
    expect((await az(['account', 'set', '--subscription', 'nope'])).stderr).toMatch(/doesn't exist in cloud/)
    expect(JSON.parse((await az(['account', 'show'])).stdout).id).toBe(a().subscriptionId)

    // The command line AzureCliCredential runs, and the answer's shape.
    const t = await az(['account', 'get-access-token', '--output', 'json', '--resource', ARM])
    expect(t.code).toBe(0)
    const doc = JSON.parse(t.stdout)
    expect(Object.keys(doc).sort()).toEqual(
      ['accessToken', 'expiresOn', 'expires_on', 'subscription', 'tenant', 'tokenType'].sort()
    )
    expect(doc).toMatchObject({ subscription: a().subscriptionId, tenant: a().tenantId, tokenType: 'Bearer' })
    expect(doc.expiresOn).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/)
    expect(Number.isInteger(doc.expires_on) && doc.expires_on > Date.now() / 1000).toBe(true)
    expect(world.azure.verifyAccessToken(doc.accessToken, `${ARM}/`)).toBe(true)
    // With --tenant (the credential passes the tenant-id input) there is no subscription.
    const withTenant = JSON.parse(
      (
        await az([
          'account',
          'get-access-token',
          '--output',
          'json',
          '--resource',
          ARM,
          '--tenant',
          a().tenantId
        ])
      ).stdout
    )
    expect(withTenant.subscription).toBeUndefined()

    // @azure/identity's real AzureCliCredential through it: a token the world's ARM accepts.
    const token = await new AzureCliCredential({ tenantId: a().tenantId }).getToken(`${ARM}/.default`)
    expect(world.azure.verifyAccessToken(token!.token, `${ARM}/`)).toBe(true)
    // Read from expires_on (whole epoch seconds), in the future.
    expect(token!.expiresOnTimestamp % 1000).toBe(0)
    expect(token!.expiresOnTimestamp).toBeGreaterThan(Date.now())

    // OIDC as azure/login does it: a GitHub ID token as the federated token.
    expect((await az(['logout'])).code).toBe(0)
    expect((await az(['account', 'show'])).code).toBe(1)
    const federated = await az([...login, '--federated-token', await githubIdToken(), '--output', 'none'])
    expect(federated).toEqual({ code: 0, stdout: '', stderr: '' })
    const viaOidc = await new AzureCliCredential().getToken(`${ARM}/.default`)
    expect(world.azure.verifyAccessToken(viaOidc!.token, `${ARM}/`)).toBe(true)
    // Managed identity needs the instance metadata service, which the simulator does not have.
    const mi = await az(['login', '--identity'])
    expect(mi.code).toBe(1)
    expect(mi.stderr).toMatch(/^ERROR: Failed to connect to MSI/)
  })
})

describe('the action with auth-type cli, after azure/login', () => {
  async function run(inputs: Record<string, string>) {
    const env = world.env() as Record<string, string>
    delete env.KUBECONFIG // the action gets its kubeconfig from ARM
    return runAction({
      distDir: shippedDist(),
      inputs: { ...world.inputs(), ...inputs },
      env,
      runId: `cli-${Math.random().toString(36).slice(2, 8)}`,
      onLog: t => process.stdout.write(t) // captured; shown only if the test fails
    })
  }

  it('signs in through az and applies; KUBECONFIG reaches later steps; the post step removes it', async () => {
    await az(['logout'])
    const login = ['login', '--service-principal', '--username', a().clientId, '--tenant', a().tenantId]
    expect((await az([...login, `--password=${a().clientSecret}`, '--output', 'none'])).code).toBe(0)
    expect((await az(['account', 'set', '--subscription', a().subscriptionId])).code).toBe(0)
    world.recorder.reset()
    const r = await run({ 'auth-type': 'cli', 'client-id': '', benchmark: 'false' })
    expect([r.exitCode, r.postExitCode]).toEqual([0, 0])
    expect(r.log).toContain('Azure sign-in: cli (auth-type cli)')
    expect(r.outputs.result).toBe('success')
    const report = JSON.parse(readFileSync(r.outputs['report-path'], 'utf8'))
    expect(report.steps.find((s: { name: string }) => s.name === 'azure-sign-in').detail).toBe(
      'credential: cli'
    )
    expect(world.recorder.counts().arm.total).toBeGreaterThan(0)
    // Exported for the later steps of the job; gone after the post step.
    expect(r.exported.KUBECONFIG).toBe(r.outputs['kubeconfig-path'])
    expect(existsSync(r.exported.KUBECONFIG)).toBe(false)
    // The summary of the successful run ends (before the post step's cleanup table) with the snippet.
    const main = r.summary.slice(0, r.summary.indexOf('### Cleanup (post step)'))
    expect([...main.matchAll(/^### (.+)$/gm)].map(m => m[1]).at(-1)).toBe('Run a workload on this pool')
  })

  it('export-kubeconfig false: a successful verify exports nothing', async () => {
    const r = await run({
      'auth-type': 'cli',
      mode: 'verify',
      benchmark: 'false',
      'export-kubeconfig': 'false'
    })
    expect([r.exitCode, r.postExitCode]).toEqual([0, 0])
    expect(r.outputs['kubeconfig-path']).toMatch(/kubeconfig-/)
    expect(r.exported).toEqual({})
  })

  it('signed out: the run fails at its first Azure call, saying to run azure/login', async () => {
    await az(['logout'])
    const r = await run({ 'auth-type': 'cli', mode: 'verify', benchmark: 'false' })
    expect(r.exitCode).toBe(1)
    expect(r.log).toMatch(/auth-type cli: the Azure CLI is not signed in\. Run azure\/login before this step/)
    expect(r.exported).toEqual({})
  })
})

describe('the command line with auth-type cli, after az login and az account set', () => {
  /** The CLI as a terminal runs it: the world's environment, inputs as flags, no subscription-id. */
  function cli(args: string[], env: NodeJS.ProcessEnv): Promise<AzResult> {
    return new Promise(resolve =>
      execFile(process.execPath, [bundlePath('cli'), ...args], { env }, (e, stdout, stderr) =>
        resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, stdout, stderr })
      )
    )
  }
  const flags = (): string[] => {
    const { 'subscription-id': _s, 'client-id': _c, 'tenant-id': _t, ...rest } = world.inputs()
    return Object.entries(rest).flatMap(([k, v]) => [`--${k}`, v])
  }
  const terminalEnv = (): NodeJS.ProcessEnv => {
    const env = stepEnv()
    delete env.KUBECONFIG
    delete env.AZURE_SUBSCRIPTION_ID
    env.HOME = world.dir // no ~/.kube/config of this machine
    return env
  }

  it('takes the subscription az account set chose (az account show), and says so', async () => {
    await az(['logout'])
    const login = ['login', '--service-principal', '--username', a().clientId, '--tenant', a().tenantId]
    expect((await az([...login, `--password=${a().clientSecret}`, '--output', 'none'])).code).toBe(0)
    expect((await az(['account', 'set', '--subscription', a().subscriptionId])).code).toBe(0)
    // As the real CLI prints it: the default subscription's id alone.
    expect((await az(['account', 'show', '--query', 'id', '-o', 'tsv'])).stdout).toBe(
      `${a().subscriptionId}\n`
    )
    world.recorder.reset()
    const r = await cli(['verify', '--auth-type', 'cli', '--benchmark', 'false', ...flags()], terminalEnv())
    expect(r.code).not.toBe(2)
    expect(r.stderr).toContain(
      `subscription ${a().subscriptionId} (the Azure CLI's default, from az account show`
    )
    // The run reached ARM under that subscription.
    expect(world.recorder.counts().arm.total).toBeGreaterThan(0)
  })

  it('AZURE_SUBSCRIPTION_ID wins over az; signed out and without it, the input error says how to sign in', async () => {
    const env = { ...terminalEnv(), AZURE_SUBSCRIPTION_ID: a().subscriptionId }
    const fromEnv = await cli(['verify', '--auth-type', 'cli', '--benchmark', 'false', ...flags()], env)
    expect(fromEnv.code).not.toBe(2)
    expect(fromEnv.stderr).toContain(`subscription ${a().subscriptionId} (from AZURE_SUBSCRIPTION_ID`)

    await az(['logout'])
    world.recorder.reset()
    const out = await cli(['verify', '--auth-type', 'cli', ...flags()], terminalEnv())
    expect(out.code).toBe(2)
    expect(out.stderr).toMatch(/subscription-id: required/)
    expect(out.stderr).toMatch(/az login/)
    expect(world.recorder.counts().arm.total).toBe(0)
  })
})
