// What a terminal already knows: kubectl's kubeconfig and az's default subscription, used when not given.
// Rules: docs/running-locally.md.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import { inputEnvName } from '../src/run/inputs.js'
import { KubeconfigError, kubeconfigSource, resolveKubeconfig } from '../src/settings/kubeconfig.js'
import type { Log } from '../src/log/index.js'

/** A mode, or one of the read-only looks (status, uninstall --dry-run), which reach the cluster as verify does. */
type Mode = 'apply' | 'verify' | 'drift' | 'plan' | 'uninstall' | 'status' | 'uninstall-preview'

/** What reaches the cluster through a kubeconfig alone, given no Azure cluster. */
const KUBECONFIG_ONLY: readonly Mode[] = ['verify', 'drift', 'status', 'uninstall-preview']

/** What was chosen and where it came from, for the log; `secrets` are to be masked first. */
export interface LocalDefault {
  inputs: Record<string, string>
  note?: string
  warning?: string
  secrets?: string[]
}

/** How long `az account show` may take (it reads az's files; no network call). */
const AZ_ACCOUNT_SHOW_TIMEOUT_MS = 30_000
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function givenIn(
  inputs: Record<string, string>,
  env: NodeJS.ProcessEnv
): (name: string) => string | undefined {
  return name => (inputs[name] ?? env[inputEnvName(name)])?.trim() || undefined
}

/** A server as a log may show it: scheme, host and port (never a user, password or path). */
export function shownServer(server: string): string {
  try {
    const u = new URL(server)
    return `${u.protocol}//${u.host}`
  } catch {
    return '(a server that is not a URL)'
  }
}

/**
 * verify and drift need only the cluster: given neither a kubeconfig nor an Azure cluster (flags,
 * --inputs-file or INPUT_ variables), they use kubectl's kubeconfig — the $KUBECONFIG list, else
 * ~/.kube/config, where `az aks get-credentials` writes — and its current context. A named Azure
 * cluster keeps its credentials from ARM, so the current context never stands in for another cluster.
 */
export function defaultKubeconfig(
  mode: Mode,
  inputs: Record<string, string>,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir()
): LocalDefault {
  const given = givenIn(inputs, env)
  if (!KUBECONFIG_ONLY.includes(mode)) return { inputs: {} }
  if (given('kubeconfig') || given('resource-group') || given('cluster-name')) return { inputs: {} }
  const fromEnv = env.KUBECONFIG?.trim()
  const file = path.join(home, '.kube', 'config')
  if (!fromEnv && !existsSync(file)) return { inputs: {} }
  const value = fromEnv || file
  const where = fromEnv ? `$KUBECONFIG (${value})` : `kubectl's default kubeconfig ${value}`
  const context = given('kube-context')
  const command = mode === 'uninstall-preview' ? 'uninstall --dry-run' : mode
  try {
    const r = resolveKubeconfig(kubeconfigSource(value, context))
    return {
      inputs: { kubeconfig: value },
      secrets: r.secrets,
      note: `${command}: the cluster of ${where}: context ${r.context} (cluster ${r.cluster}, server ${shownServer(r.server)}); give --resource-group and --cluster-name to reach an Azure cluster instead`
    }
  } catch (e) {
    // The settings report the problem (naming the file and the contexts there are).
    if (!(e instanceof KubeconfigError)) throw e
    return { inputs: { kubeconfig: value }, note: `${command}: using ${where}` }
  }
}

/** `az account show --query id -o tsv`: the subscription `az account set` chose, or why there is none. */
function azDefaultSubscription(env: NodeJS.ProcessEnv): { id?: string; why?: string } {
  try {
    const out = execFileSync('az', ['account', 'show', '--query', 'id', '--output', 'tsv'], {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: AZ_ACCOUNT_SHOW_TIMEOUT_MS
    }).trim()
    return GUID.test(out) ? { id: out } : { why: 'az account show printed no subscription id' }
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: string }
    if (err.code === 'ENOENT') return { why: 'the Azure CLI (az) is not on PATH' }
    const line = (err.stderr ?? '')
      .split('\n')
      .map(l => l.trim())
      .find(Boolean)
    return { why: `az account show failed${line ? `: ${line.replace(/\.+$/, '').slice(0, 200)}` : ''}` }
  }
}

/**
 * With auth-type cli and no subscription-id (nor creds), the subscription az uses: AZURE_SUBSCRIPTION_ID
 * when set, else the CLI's default (`az account set`), as `az account show` reports it. Not where the
 * run reaches the cluster through a kubeconfig alone (verify; drift, where subscription-id would also
 * compare the Azure resources), nor in plan.
 */
export function defaultSubscription(
  mode: Mode,
  inputs: Record<string, string>,
  env: NodeJS.ProcessEnv = process.env,
  az: (env: NodeJS.ProcessEnv) => { id?: string; why?: string } = azDefaultSubscription
): LocalDefault {
  const given = givenIn(inputs, env)
  if (mode === 'plan' || given('auth-type')?.toLowerCase() !== 'cli') return { inputs: {} }
  if (given('subscription-id') || given('creds')) return { inputs: {} }
  if (given('kubeconfig') && KUBECONFIG_ONLY.includes(mode)) return { inputs: {} }
  const fromEnv = env.AZURE_SUBSCRIPTION_ID?.trim()
  if (fromEnv)
    return {
      inputs: { 'subscription-id': fromEnv },
      note: `subscription ${fromEnv} (from AZURE_SUBSCRIPTION_ID; --subscription-id chooses another)`
    }
  const r = az(env)
  if (r.id)
    return {
      inputs: { 'subscription-id': r.id },
      note: `subscription ${r.id} (the Azure CLI's default, from az account show; az account set --subscription or --subscription-id chooses another)`
    }
  return {
    inputs: {},
    warning: `no subscription-id, and none from the Azure CLI: ${r.why}. Run az login and az account set --subscription ID, or give --subscription-id`
  }
}

/** Logs what a default chose (its secrets masked first). */
export function logDefault(d: LocalDefault, log: Log, mask: (secret: string) => void): void {
  for (const s of d.secrets ?? []) mask(s)
  if (d.note) log.info(d.note)
  if (d.warning) log.warning(d.warning)
}
