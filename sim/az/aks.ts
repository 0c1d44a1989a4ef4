// `az aks nodepool show | scale | update | delete` as the Azure CLI's acs module runs them (the
// commands drift prints as fixes): the required `--resource-group/-g`, `--cluster-name` and
// `--name/-n`, `--subscription` (default: the signed-in one), an ARM token as `az account
// get-access-token` gets it, then the REST calls of azure-cli's custom.py — show: GET; scale: GET,
// refused when the pool autoscales or already has `--node-count` (default 3), then PUT with the new
// count; update: GET, `--labels` (space-separated key=value, replacing them all; `""` clears) and
// `--node-taints` (comma-separated key=value:Effect, validated as az does; `""` clears), then PUT;
// delete: list, "doesnt exist" when absent, then DELETE. A PUT or DELETE waits on its
// Azure-AsyncOperation (Retry-After between polls) unless `--no-wait`; show, scale and update print
// the pool as az does (the properties flattened beside id, name and resourceGroup). ARM's refusals
// print as az prints them: `(Code) Message`.
import { request } from 'node:https'
import { API_VERSIONS } from '../../src/model/azure-resources.js'
import { NOT_SIGNED_IN, print, signedIn, value, type AzIo, type Parsed } from './args.js'
import type { AzProfile } from './profile.js'
import { acquireToken, AzError } from './token.js'

interface ArmAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: any
}

interface Target {
  subscription: string
  resourceGroup: string
  cluster: string
  pool: string
}

/** What the SDK leaves out of a PUT body (read-only in the AgentPool model). */
const READ_ONLY = [
  'provisioningState',
  'currentOrchestratorVersion',
  'nodeImageVersion',
  'eTag',
  'status',
  'virtualMachineNodesStatus'
]
/** azure-cli's validate_taint: `key=value:Effect` (a value is required). */
const TAINT_RE = /^[a-zA-Z\d][\w\-./]{0,252}=[a-zA-Z\d][\w\-.]{0,62}:(NoSchedule|PreferNoSchedule|NoExecute)$/
const LABEL_NAME_RE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/
const LABEL_VALUE_RE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/
const LABEL_PREFIX_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/

function send(method: string, url: string, token: string, body?: unknown): Promise<ArmAnswer> {
  const text = body === undefined ? undefined : JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(text !== undefined
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }
            : {})
        },
        timeout: 60_000
      },
      res => {
        let data = ''
        res.setEncoding('utf8')
        res.on('data', c => (data += c))
        res.on('end', () => {
          let parsed: unknown
          try {
            parsed = data ? JSON.parse(data) : undefined
          } catch {
            parsed = undefined
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed })
        })
      }
    )
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url}`)))
    req.on('error', reject)
    req.end(text)
  })
}

/** ARM's error as az prints an HttpResponseError. */
function armFailure(a: ArmAnswer): AzError {
  const e = a.body?.error ?? {}
  const code = String(e.code ?? `HTTP${a.status}`)
  const message = String(e.message ?? `Operation returned an invalid status code ${a.status}`)
  return new AzError(`(${code}) ${message}\nCode: ${code}\nMessage: ${message}`)
}

/** An ARM client for one command: the signed-in identity's token, the active cloud's endpoint. */
class Arm {
  private token?: string

  constructor(
    private readonly profile: AzProfile,
    private readonly subscription: string
  ) {}

  private async bearer(): Promise<string> {
    if (this.token) return this.token
    if (!this.profile.subscriptions().length) throw new AzError(NOT_SIGNED_IN)
    const sub = this.profile.subscriptions().find(s => s.id.toLowerCase() === this.subscription.toLowerCase())
    const sp = this.profile.servicePrincipals().find(e => e.client_id === sub?.user.name)
    if (!sub || !sp)
      throw new AzError(
        `Subscription '${this.subscription}' not found. Check the spelling and casing and try again.`
      )
    const cloud = this.profile.activeCloud()
    const t = await acquireToken(
      this.profile,
      cloud,
      sp,
      sub.tenantId,
      `${cloud.activeDirectoryResourceId}/.default`
    )
    return (this.token = t.accessToken)
  }

  url(path: string): string {
    const base = this.profile.activeCloud().resourceManager.replace(/\/+$/, '')
    return `${base}${path}${path.includes('?') ? '&' : '?'}api-version=${API_VERSIONS.containerService}`
  }

  async call(method: string, url: string, body?: unknown): Promise<ArmAnswer> {
    let answer: ArmAnswer
    try {
      answer = await send(method, url, await this.bearer(), body)
    } catch (e) {
      if (e instanceof AzError) throw e
      throw new AzError(`HTTPSConnectionPool: ${(e as Error).message}`)
    }
    if (answer.status >= 400) throw armFailure(answer)
    return answer
  }

  /** Polls the operation's Azure-AsyncOperation until it ends (waiting Retry-After between polls). */
  async wait(started: ArmAnswer): Promise<void> {
    const header = (a: ArmAnswer, n: string): string | undefined => {
      const v = a.headers[n.toLowerCase()]
      return Array.isArray(v) ? v[0] : v
    }
    const status = header(started, 'Azure-AsyncOperation')
    if (!status) return
    let delay = Number(header(started, 'Retry-After') ?? 1)
    for (;;) {
      await new Promise(r => setTimeout(r, Math.max(0, delay) * 1000))
      const poll = await this.call('GET', status)
      const state = String(poll.body?.status ?? '')
      if (/^(succeeded)$/i.test(state)) return
      if (/^(failed|canceled)$/i.test(state))
        throw armFailure({ ...poll, body: { error: poll.body?.error ?? { code: state, message: state } } })
      delay = Number(header(poll, 'Retry-After') ?? delay)
    }
  }
}

function target(profile: AzProfile, p: Parsed): Target {
  const missing = [
    ['--resource-group', '--resource-group/-g'],
    ['--cluster-name', '--cluster-name'],
    ['--name', '--name/-n']
  ]
    .filter(([flag]) => !value(p, flag))
    .map(([, shown]) => shown)
  if (missing.length) throw new AzError(`the following arguments are required: ${missing.join(', ')}`, 2)
  return {
    subscription: value(p, '--subscription') ?? signedIn(profile).id,
    resourceGroup: value(p, '--resource-group')!,
    cluster: value(p, '--cluster-name')!,
    pool: value(p, '--name')!
  }
}

function poolPath(t: Target, pool = t.pool): string {
  return `/subscriptions/${t.subscription}/resourceGroups/${t.resourceGroup}/providers/Microsoft.ContainerService/managedClusters/${t.cluster}/agentPools${pool ? `/${pool}` : ''}`
}

/** A pool as az prints it: id, name and type, the properties flattened, and the resource group. */
function shown(pool: any, t: Target): Record<string, unknown> {
  const { properties, ...rest } = pool ?? {}
  return { ...rest, ...(properties ?? {}), resourceGroup: t.resourceGroup }
}

/** The body of a PUT of a pool as read: its writable properties. */
function putBody(pool: any): Record<string, unknown> {
  const properties = Object.fromEntries(
    Object.entries(pool?.properties ?? {}).filter(([k]) => !READ_ONLY.includes(k))
  )
  return { properties }
}

/** azure-cli's validate_label: `name=value` with a DNS prefix allowed; `""` is no label. */
function labels(words: string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const w of words) {
    if (w === '') continue
    const kv = w.split('=')
    if (kv.length !== 2)
      throw new AzError(`Invalid label: ${w}. Label definition must be of format name=value.`)
    const parts = kv[0].split('/')
    const name = parts.at(-1)!
    const prefixOk = parts.length === 1 || (parts.length === 2 && LABEL_PREFIX_RE.test(parts[0]))
    if (!prefixOk || !name || name.length > 63 || !LABEL_NAME_RE.test(name))
      throw new AzError(
        `Invalid label: ${w}. A qualified name must consist of alphanumeric characters, '-', '_' or '.'`
      )
    if (kv[1].length > 63 || !LABEL_VALUE_RE.test(kv[1]))
      throw new AzError(
        `Invalid label: ${w}. A valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.'`
      )
    out[kv[0]] = kv[1]
  }
  return out
}

function taints(text: string): string[] {
  const list = text === '' ? [] : text.split(',')
  for (const t of list)
    if (t !== '' && !TAINT_RE.test(t))
      throw new AzError(`Invalid node taint: ${t}. Taint must be of format key=value:effect.`)
  return list.filter(Boolean)
}

async function put(arm: Arm, io: AzIo, p: Parsed, t: Target, pool: any): Promise<void> {
  const url = arm.url(poolPath(t))
  const started = await arm.call('PUT', url, putBody(pool))
  if (p.flags.has('--no-wait')) return
  await arm.wait(started)
  print(io, p, shown((await arm.call('GET', url)).body, t))
}

/** Runs `az aks nodepool <verb> …`. */
export async function aksNodepool(profile: AzProfile, verb: string, p: Parsed, io: AzIo): Promise<void> {
  const t = target(profile, p)
  const arm = new Arm(profile, t.subscription)
  const url = arm.url(poolPath(t))
  if (verb === 'show') return print(io, p, shown((await arm.call('GET', url)).body, t))
  if (verb === 'delete') {
    const list = (await arm.call('GET', arm.url(poolPath(t, '')))).body?.value ?? []
    if (!list.some((x: { name?: string }) => x.name?.toLowerCase() === t.pool.toLowerCase()))
      throw new AzError(
        `Node pool ${t.pool} doesnt exist, use 'aks nodepool list' to get current node pool list`
      )
    const started = await arm.call('DELETE', url)
    if (!p.flags.has('--no-wait')) await arm.wait(started)
    return
  }
  const pool = (await arm.call('GET', url)).body
  if (verb === 'scale') {
    const count = Number(value(p, '--node-count') ?? 3)
    if (!Number.isInteger(count))
      throw new AzError(`argument --node-count/-c: invalid int value: '${value(p, '--node-count')}'`, 2)
    if (pool.properties?.enableAutoScaling)
      throw new AzError('Cannot scale cluster autoscaler enabled node pool.')
    if (count === pool.properties?.count)
      throw new AzError('The new node count is the same as the current node count.')
    pool.properties.count = count
    return put(arm, io, p, t, pool)
  }
  // update
  const newLabels = p.lists.get('--labels')
  const newTaints = value(p, '--node-taints')
  if (newLabels === undefined && newTaints === undefined)
    throw new AzError(
      'Please specify one or more of "--labels", "--node-taints" (the stand-in updates these only).'
    )
  if (newLabels !== undefined) pool.properties.nodeLabels = labels(newLabels)
  if (newTaints !== undefined) pool.properties.nodeTaints = taints(newTaints)
  return put(arm, io, p, t, pool)
}
