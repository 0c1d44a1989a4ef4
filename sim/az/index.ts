// The `az` stand-in: the part of the Azure CLI that azure/login and @azure/identity's
// AzureCliCredential use, answering as the real CLI does. The simulator puts it first on PATH
// (`node dist/cli.js __az …`), so `auth-type: cli` runs against the simulated world unchanged.
// - `az version` (JSON with `azure-cli`), `az cloud set -n NAME`, `az cloud show`;
// - `az login --service-principal -u ID (-p SECRET | --password=SECRET | --federated-token JWT)
//   --tenant T [--allow-no-subscriptions]`: signs in at the cloud's Entra (the client-credentials
//   grant, as MSAL does), so a wrong secret fails here with Entra's AADSTS message; `--identity`
//   (managed identity) has no IMDS in the simulator and fails as az does on a machine without one;
// - `az account set --subscription S`, `az account show`, `az logout` / `az account clear`;
// - `az account get-access-token [--resource R | --scope S] [--tenant T] [--subscription S]
//   [--output json]`: `{accessToken, expiresOn (local time), expires_on (epoch seconds), tenant,
//   subscription (not with --tenant), tokenType}`; signed out, `ERROR: Please run 'az login' to
//   setup account.` on stderr and exit 1, the text AzureCliCredential recognises;
// - `az aks nodepool show|scale|update|delete` against the world's ARM (aks.ts): the commands
//   drift prints as fixes, run as printed.
// Simplification: the real CLI lists the identity's subscriptions from ARM at login; the stand-in
// takes them from AZ_STANDIN_SUBSCRIPTIONS (the world sets its subscription there).
import { aksNodepool } from './aks.js'
import { NOT_SIGNED_IN, parse, print, signedIn, value, type AzIo, type Parsed } from './args.js'

export type { AzIo } from './args.js'
import { AzProfile, type Subscription } from './profile.js'
import { acquireToken, AzError } from './token.js'

export { AzProfile } from './profile.js'

/** The Azure CLI version the stand-in reports. */
export const AZ_STANDIN_VERSION = '2.77.0'
/** Comma-separated subscription ids a service principal sees at login (the world's). */
export const AZ_STANDIN_SUBSCRIPTIONS_ENV = 'AZ_STANDIN_SUBSCRIPTIONS'

/** `2024-05-02 12:34:56.000000` in local time, as az prints `expiresOn`. */
function localDateTime(epochSeconds: number): string {
  const d = new Date(epochSeconds * 1000)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.000000`
}

function shown(s: Subscription): Record<string, unknown> {
  const { environmentName, ...rest } = s
  return { ...rest, cloudName: environmentName }
}

async function login(profile: AzProfile, p: Parsed, env: NodeJS.ProcessEnv, io: AzIo): Promise<void> {
  if (p.flags.has('--identity'))
    throw new AzError(
      'Failed to connect to MSI. Please make sure MSI is configured correctly. (the simulator has no instance metadata service: sign in with --service-principal)'
    )
  if (!p.flags.has('--service-principal'))
    throw new AzError(
      'The az stand-in signs in service principals only: az login --service-principal --username ID --password SECRET --tenant TENANT'
    )
  const username = value(p, '--username')
  const tenant = value(p, '--tenant')
  if (!username)
    throw new AzError('usage error: --service-principal --username NAME --password SECRET --tenant TENANT')
  if (!tenant) throw new AzError('usage error: --tenant is required for a service principal')
  const secret = value(p, '--password')
  const assertion = value(p, '--federated-token') ?? value(p, '--client-assertion')
  if (secret === undefined && assertion === undefined)
    throw new AzError('Please specify both username and password in non-interactive mode.')
  const entry = {
    client_id: username,
    tenant,
    ...(secret !== undefined ? { client_secret: secret } : { client_assertion: assertion })
  }
  const cloud = profile.activeCloud()
  // As MSAL at login: a token for ARM proves the credential (a wrong one fails here).
  await acquireToken(profile, cloud, entry, tenant, `${cloud.activeDirectoryResourceId}/.default`)
  const ids = (env[AZ_STANDIN_SUBSCRIPTIONS_ENV] ?? '')
    .split(',')
    .map(s => s.trim())
    .filter(Boolean)
  const user = { name: username, type: 'servicePrincipal' as const }
  const base = {
    state: 'Enabled' as const,
    tenantId: tenant,
    homeTenantId: tenant,
    environmentName: cloud.name,
    managedByTenants: [],
    user
  }
  let subs: Subscription[] = ids.map((id, i) => ({
    ...base,
    id,
    name: `Simulated subscription ${id}`,
    isDefault: i === 0
  }))
  if (!subs.length) {
    if (!p.flags.has('--allow-no-subscriptions')) throw new AzError(`No subscriptions found for ${username}.`)
    subs = [{ ...base, id: tenant, name: 'N/A(tenant level account)', isDefault: true }]
  }
  profile.clear()
  profile.saveServicePrincipal(entry)
  profile.saveSubscriptions(subs)
  print(io, p, subs.map(shown))
}

async function getAccessToken(profile: AzProfile, p: Parsed, io: AzIo): Promise<void> {
  const current = signedIn(profile)
  const wanted = value(p, '--subscription')
  const sub = wanted
    ? profile.subscriptions().find(s => s.id.toLowerCase() === wanted.toLowerCase() || s.name === wanted)
    : current
  if (!sub)
    throw new AzError(`Subscription '${wanted}' not found. Check the spelling and casing and try again.`)
  const tenantGiven = value(p, '--tenant')
  if (tenantGiven && wanted)
    throw new AzError('usage error: --tenant/-t cannot be used with --subscription/-s')
  const tenant = tenantGiven ?? sub.tenantId
  const sp = profile.servicePrincipals().find(e => e.client_id === sub.user.name)
  if (!sp) throw new AzError(NOT_SIGNED_IN)
  const cloud = profile.activeCloud()
  const scope = value(p, '--scope') ?? `${value(p, '--resource') ?? cloud.activeDirectoryResourceId}/.default`
  let token
  try {
    token = await acquireToken(profile, cloud, sp, tenant, scope)
  } catch (e) {
    // As az: Entra's description, then how to sign in again.
    throw new AzError(`${(e as Error).message}\nTo re-authenticate, please run:\naz login`)
  }
  print(io, p, {
    accessToken: token.accessToken,
    expiresOn: localDateTime(token.expiresOn),
    expires_on: token.expiresOn,
    ...(tenantGiven ? {} : { subscription: sub.id }),
    tenant,
    tokenType: 'Bearer'
  })
}

function accountSet(profile: AzProfile, p: Parsed): void {
  const wanted = value(p, '--subscription')
  if (!wanted) throw new AzError('the following arguments are required: --subscription/-s', 2)
  const subs = profile.subscriptions()
  if (!subs.length) throw new AzError(NOT_SIGNED_IN)
  const hit = subs.find(s => s.id.toLowerCase() === wanted.toLowerCase() || s.name === wanted)
  if (!hit)
    throw new AzError(
      `The subscription of '${wanted}' doesn't exist in cloud '${profile.activeCloud().name}'.`
    )
  profile.saveSubscriptions(subs.map(s => ({ ...s, isDefault: s === hit })))
}

async function dispatch(profile: AzProfile, p: Parsed, env: NodeJS.ProcessEnv, io: AzIo): Promise<void> {
  const cmd = p.words.join(' ')
  if (p.flags.has('--version') || cmd === 'version') {
    if (cmd === 'version')
      print(io, p, {
        'azure-cli': AZ_STANDIN_VERSION,
        'azure-cli-core': AZ_STANDIN_VERSION,
        'azure-cli-telemetry': '1.1.0',
        extensions: {}
      })
    else io.stdout(`azure-cli                         ${AZ_STANDIN_VERSION}\n`)
    return
  }
  const nodepool = /^aks nodepool (show|scale|update|delete)$/.exec(cmd)
  if (nodepool) return aksNodepool(profile, nodepool[1], p, io)
  switch (cmd) {
    case 'login':
      return login(profile, p, env, io)
    case 'logout':
    case 'account clear':
      profile.clear()
      return
    case 'account show':
      return print(io, p, shown(signedIn(profile)))
    case 'account list':
      return print(io, p, profile.subscriptions().map(shown))
    case 'account set':
      return accountSet(profile, p)
    case 'account get-access-token':
      return getAccessToken(profile, p, io)
    case 'cloud set': {
      const name = value(p, '--name') ?? ''
      const cloud = profile.findCloud(name)
      if (!cloud) throw new AzError(`The cloud '${name}' is not registered.`)
      profile.setActiveCloud(cloud)
      return
    }
    case 'cloud show': {
      const c = profile.activeCloud()
      return print(io, p, {
        name: c.name,
        isActive: true,
        endpoints: {
          activeDirectory: c.activeDirectory,
          activeDirectoryResourceId: c.activeDirectoryResourceId,
          resourceManager: c.resourceManager
        }
      })
    }
  }
  throw new AzError(`'${cmd}' is misspelled or not recognized by the system.`, 2)
}

/** Runs one `az` command line; returns its exit code (0, 1 for an error, 2 for a usage error). */
export async function azStandin(argv: string[], env: NodeJS.ProcessEnv, io: AzIo): Promise<number> {
  try {
    await dispatch(new AzProfile(env), parse(argv), env, io)
    return 0
  } catch (e) {
    if (!(e instanceof AzError)) throw e
    io.stderr(`ERROR: ${e.message}\n`)
    return e.exitCode
  }
}
