// Kubernetes access through @kubernetes/client-node 2: server-side apply (field manager aks-rdma-action),
// reads and lists as the server's JSON (not typed models), logs, events and watch sources. Rate limit,
// pages and retries (exponential backoff for transient failures, none otherwise): docs/scale.md.
import {
  ApiException,
  AppsV1Api,
  CoordinationV1Api,
  CoreV1Api,
  createConfiguration,
  HttpMethod,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  ServerConfiguration,
  Watch,
  type Configuration,
  type KubernetesObject,
  type RequestContext,
  type ResponseContext
} from '@kubernetes/client-node'
import { FIELD_MANAGER } from '../model/types.js'
import { checkConverged, dryRunChanges, type ConvergeCheck } from './converge.js'
import {
  ApplyConflictError,
  KubeRequestError,
  httpStatusOf,
  isConflict,
  isNotFound,
  KindNotServedError,
  messageOf,
  parseApplyConflicts,
  statusOf
} from './errors.js'
import { withRetry } from './retry.js'
import {
  describeRef,
  refOf,
  type KubeObject,
  type KubeRef,
  type ListOptions,
  type ListResult
} from './types.js'
import type { WatchSource } from './watch.js'
import { maskExecCredentials, useTokenSocketsDirectly } from './exec-token.js'
import { log, type Log } from '../log/index.js'
import { bucketFor, DEFAULT_RATE_LIMIT, type RateLimit, type TokenBucket } from './rate-limit.js'

export interface KubeClientOptions {
  /** Retries of transient failures (settings.wait.retries). */
  retries: number
  /** First backoff delay (default 200 ms). */
  backoffBaseMs?: number
  /** Where retry notices go (default: nowhere). */
  log?: Log
  fieldManager?: string
  /** Client-side rate limit (default DEFAULT_RATE_LIMIT, shared per API server). */
  rateLimit?: RateLimit
}

/** How to apply: `force` takes over fields other managers hold; `live` as the caller read it (null: absent). */
export interface ApplyOptions {
  force?: boolean
  live?: KubeObject | null
}

export interface ApplyResult {
  /** Created, or its resourceVersion moved. */
  changed: boolean
  created: boolean
  object: KubeObject
}

export interface DryRunResult {
  /** What the object would be after the apply. */
  object: KubeObject
  live: KubeObject | undefined
  wouldChange: boolean
}

export interface WriteNeed extends ConvergeCheck {
  live: KubeObject | undefined
  /** True when the GET-only check said "differs" and a dry-run apply was asked to confirm. */
  confirmedByDryRun: boolean
  /** The dry run was refused: another field manager owns fields this apply sets (without force). */
  conflict?: ApplyConflictError
}

const WATCH_TIMEOUT_SECONDS = 25

/**
 * KubernetesObjectApi with its discovery-based path builder made reachable (for watch paths), and
 * one discovery request per group-version at a time: lookups that start together (several waits
 * opening their watches at once) share the one in flight instead of each asking the server.
 */
class ObjectApi extends KubernetesObjectApi {
  private readonly discovering = new Map<string, Promise<unknown>>()

  override async resource(
    ...args: Parameters<KubernetesObjectApi['resource']>
  ): ReturnType<KubernetesObjectApi['resource']> {
    const [apiVersion] = args
    const pending = this.discovering.get(apiVersion)
    if (pending) await pending.catch(() => undefined)
    const lookup = super.resource(...args)
    if (!pending) {
      this.discovering.set(apiVersion, lookup)
      lookup.finally(() => this.discovering.delete(apiVersion)).catch(() => undefined)
    }
    return lookup
  }

  async collectionPath(
    apiVersion: string,
    kind: string,
    namespace?: string
  ): Promise<{ path: string; plural: string; namespaced: boolean }> {
    const resource = await this.resource(apiVersion, kind)
    if (!resource) throw new KindNotServedError(apiVersion, kind)
    const base = this.apiVersionPath(apiVersion)
    const path =
      resource.namespaced && namespace
        ? `${base}/namespaces/${encodeURIComponent(namespace)}/${resource.name}`
        : `${base}/${resource.name}`
    return { path, plural: resource.name, namespaced: resource.namespaced }
  }
  /** Forget discovery (a CRD installed by a chart appears after the first lookup). */
  forgetDiscovery(apiVersion: string): void {
    delete this.apiVersionResourceCache[apiVersion]
  }

  /** A GET whose answer is the server's JSON as parsed, without client-node's typed models. */
  async getJson<T>(path: string, query: Record<string, string | number | undefined> = {}): Promise<T> {
    let ctx = this.configuration.baseServer.makeRequestContext(path, HttpMethod.GET)
    ctx.setHeaderParam('Accept', 'application/json')
    for (const [k, v] of Object.entries(query))
      if (v !== undefined && v !== '') ctx.setQueryParam(k, String(v))
    await this.configuration.authMethods.default?.applySecurityAuthentication(ctx)
    for (const m of this.configuration.middleware) ctx = await m.pre(ctx).toPromise()
    const res = await this.configuration.httpApi.send(ctx).toPromise()
    if (res.httpStatusCode < 200 || res.httpStatusCode > 299)
      throw new ApiException(
        res.httpStatusCode,
        'Unsuccessful HTTP Request',
        await res.getBodyAsAny(),
        res.headers
      )
    return JSON.parse(await res.body.text()) as T
  }
}

const USER_AGENT = 'aks-rdma-action'

/**
 * An API client of `kc`'s current cluster whose every request first takes a token of `bucket`
 * (what kc.makeApiClient builds, plus the rate limit).
 */
function limitedApiClient<T>(kc: KubeConfig, type: new (config: Configuration) => T, bucket: TokenBucket): T {
  const cluster = kc.getCurrentCluster()
  if (!cluster) throw new Error('No active cluster!')
  const config = createConfiguration({
    baseServer: new ServerConfiguration(cluster.server, {}),
    authMethods: { default: kc },
    promiseMiddleware: [
      {
        pre: async (ctx: RequestContext) => {
          ctx.setHeaderParam('User-Agent', USER_AGENT)
          await bucket.take()
          return ctx
        },
        post: async (r: ResponseContext) => r
      }
    ]
  })
  return new type(config)
}

/** Plain JSON (timestamps as strings) of a client-node model. */
export function plain<T = KubeObject>(o: unknown): T {
  return JSON.parse(JSON.stringify(o)) as T
}

/**
 * Requests that change nothing on the cluster: GET, LIST, and the server's dry-run apply (the API
 * server runs admission and defaulting and persists nothing). Drift reads the cluster through this
 * alone, so a write from drift does not compile; a unit test hands in a small fake of it.
 */
export interface KubeReader {
  /** The object, or undefined when it does not exist. */
  get(ref: KubeRef): Promise<KubeObject | undefined>
  /** Every object of a kind matching the options. */
  list(apiVersion: string, kind: string, opts?: ListOptions): Promise<ListResult>
  /** What the object would become if applied, without writing it. */
  dryRunApply(m: KubeObject, opts?: ApplyOptions): Promise<DryRunResult>
}

/** Requests that change the cluster: server-side apply, and the check whether it would write. */
export interface KubeWriter {
  applyManifest(m: KubeObject, opts?: ApplyOptions): Promise<ApplyResult>
  needsApply(m: KubeObject, opts?: { force?: boolean }): Promise<WriteNeed>
}

export class KubeClient implements KubeReader, KubeWriter {
  readonly core: CoreV1Api
  readonly apps: AppsV1Api
  readonly coordination: CoordinationV1Api
  /** The API server's client-side rate limit (shared by every client of it in this process). */
  readonly bucket: TokenBucket
  private readonly objects: ObjectApi
  private readonly fieldManager: string

  constructor(
    readonly kc: KubeConfig,
    readonly opts: KubeClientOptions
  ) {
    const server = kc.getCurrentCluster()?.server ?? ''
    this.bucket = bucketFor(server, opts.rateLimit ?? DEFAULT_RATE_LIMIT)
    this.core = limitedApiClient(kc, CoreV1Api, this.bucket)
    this.apps = limitedApiClient(kc, AppsV1Api, this.bucket)
    this.coordination = limitedApiClient(kc, CoordinationV1Api, this.bucket)
    this.objects = limitedApiClient(kc, ObjectApi, this.bucket)
    this.fieldManager = opts.fieldManager ?? FIELD_MANAGER
  }

  static fromFile(path: string, opts: KubeClientOptions): KubeClient {
    const kc = new KubeConfig()
    kc.loadFromFile(path)
    useTokenSocketsDirectly(kc) // an AAD cluster's token, from this run's token service
    maskExecCredentials(kc, value => log.secret(value)) // another plugin's token, masked
    return new KubeClient(kc, opts)
  }

  static fromString(yaml: string, opts: KubeClientOptions): KubeClient {
    const kc = new KubeConfig()
    kc.loadFromString(yaml)
    useTokenSocketsDirectly(kc)
    maskExecCredentials(kc, value => log.secret(value)) // another plugin's token, masked
    return new KubeClient(kc, opts)
  }

  /** Runs a request with the transient-failure retries; a final failure becomes a KubeRequestError. */
  async request<T>(what: string, fn: () => Promise<T>, raw = false): Promise<T> {
    try {
      return await withRetry(fn, {
        retries: this.opts.retries,
        baseDelayMs: this.opts.backoffBaseMs,
        onRetry: (attempt, delay, e) =>
          this.opts.log?.info(
            `${what}: ${messageOf(e)} (HTTP ${httpStatusOf(e) ?? '-'}); retry ${attempt}/${this.opts.retries} in ${delay}ms`
          )
      })
    } catch (e) {
      if (raw) throw e
      throw new KubeRequestError(what, httpStatusOf(e), messageOf(e), e)
    }
  }

  /** The object, or undefined when it does not exist. */
  async get(ref: KubeRef): Promise<KubeObject | undefined> {
    try {
      const obj = await this.request(
        `get ${describeRef(ref)}`,
        async () => {
          const { path } = await this.objects.collectionPath(ref.apiVersion, ref.kind, ref.namespace)
          return this.objects.getJson<KubeObject>(`${path}/${encodeURIComponent(ref.name)}`)
        },
        true
      )
      return { ...obj, apiVersion: obj.apiVersion ?? ref.apiVersion, kind: obj.kind ?? ref.kind }
    } catch (e) {
      if (isNotFound(e)) return undefined
      throw new KubeRequestError(`get ${describeRef(ref)}`, httpStatusOf(e), messageOf(e), e)
    }
  }

  private async patchApply(
    m: KubeObject,
    dryRun: boolean,
    force: boolean,
    fieldManager = this.fieldManager
  ): Promise<KubeObject> {
    const ref = refOf(m)
    const what = `${dryRun ? 'dry-run ' : ''}apply ${describeRef(ref)}`
    try {
      const out = await this.request(
        what,
        () =>
          this.objects.patch(
            structuredClone(m) as KubernetesObject,
            undefined,
            dryRun ? 'All' : undefined,
            fieldManager,
            force ? true : undefined,
            PatchStrategy.ServerSideApply
          ),
        true
      )
      return plain(out)
    } catch (e) {
      if (isConflict(e)) {
        const st = statusOf(e)
        throw new ApplyConflictError(describeRef(ref), parseApplyConflicts(st), st?.message ?? messageOf(e))
      }
      if (isNotFound(e) && /resource metadata/i.test(messageOf(e))) this.objects.forgetDiscovery(m.apiVersion)
      throw new KubeRequestError(what, httpStatusOf(e), messageOf(e), e)
    }
  }

  /** The live object as the caller read it (null: absent), or read now when the caller did not. */
  private async liveOf(m: KubeObject, given: KubeObject | null | undefined): Promise<KubeObject | undefined> {
    return given === undefined ? this.get(refOf(m)) : (given ?? undefined)
  }

  /**
   * Server-side apply as field manager aks-rdma-action. A conflict with another manager fails with
   * an ApplyConflictError naming it and the field, unless `force` takes the fields over.
   */
  async applyManifest(m: KubeObject, opts: ApplyOptions = {}): Promise<ApplyResult> {
    const before = await this.liveOf(m, opts.live)
    const object = await this.patchApply(m, false, opts.force ?? false)
    const created = !before
    return {
      created,
      changed: created || before.metadata.resourceVersion !== object.metadata.resourceVersion,
      object
    }
  }

  /**
   * Labels an object under a field manager of their own (`manager`): the main field manager never
   * owns them, so its later applies (and drift's comparisons) neither remove nor report them.
   */
  async applyLabels(ref: KubeRef, labels: Record<string, string>, manager: string): Promise<void> {
    const m: KubeObject = {
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      metadata: { name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}), labels }
    }
    await this.patchApply(m, false, true, manager)
  }

  /**
   * Deletes an object (background propagation: its dependents go with it), only while it is the
   * one read (its uid). Resolves false when it was already gone; the deletion itself may still be
   * under way (a deletionTimestamp, finalizers): wait for it to be gone.
   */
  async deleteObject(ref: KubeRef, uid?: string): Promise<boolean> {
    const what = `delete ${describeRef(ref)}`
    try {
      await this.request(
        what,
        () =>
          this.objects.delete(
            {
              apiVersion: ref.apiVersion,
              kind: ref.kind,
              metadata: { name: ref.name, namespace: ref.namespace }
            },
            undefined,
            undefined,
            undefined,
            undefined,
            'Background',
            uid ? { preconditions: { uid } } : undefined
          ),
        true
      )
      return true
    } catch (e) {
      if (isNotFound(e)) return false
      throw new KubeRequestError(what, httpStatusOf(e), messageOf(e), e)
    }
  }

  /** A server-side apply with dryRun=All: what the object would become, without writing it. */
  async dryRunApply(m: KubeObject, opts: ApplyOptions = {}): Promise<DryRunResult> {
    const live = await this.liveOf(m, opts.live)
    const object = await this.patchApply(m, true, opts.force ?? false)
    return { object, live, wouldChange: dryRunChanges(object, live) }
  }

  /**
   * Whether applying `m` would write anything: a GET and a field comparison first; only when
   * that finds a difference, a dry-run apply confirms it (so a converged object costs one GET).
   */
  async needsApply(m: KubeObject, opts: { force?: boolean } = {}): Promise<WriteNeed> {
    const live = await this.get(refOf(m))
    const check = checkConverged(m, live, this.fieldManager)
    if (check.converged || !live) return { ...check, live, confirmedByDryRun: false }
    let dry: DryRunResult
    try {
      dry = await this.dryRunApply(m, { force: opts.force, live: live ?? null })
    } catch (e) {
      if (e instanceof ApplyConflictError)
        return { converged: false, reason: check.reason, live, confirmedByDryRun: true, conflict: e }
      throw e
    }
    return dry.wouldChange
      ? { converged: false, reason: check.reason, live, confirmedByDryRun: true }
      : { converged: true, live, confirmedByDryRun: true }
  }

  /** The collection path of a kind (discovery), e.g. `/api/v1/namespaces/x/pods`. */
  async collectionPath(apiVersion: string, kind: string, namespace?: string): Promise<string> {
    const p = await this.request(
      `discover ${kind} ${apiVersion}`,
      () => this.objects.collectionPath(apiVersion, kind, namespace),
      true
    ).catch(e => {
      this.objects.forgetDiscovery(apiVersion)
      throw e
    })
    return p.path
  }

  /** One page of a list. */
  async listPage(
    apiVersion: string,
    kind: string,
    opts: ListOptions,
    continueToken?: string
  ): Promise<ListResult & { continue?: string }> {
    const what = `list ${kind}${opts.namespace ? ` -n ${opts.namespace}` : ''}${opts.labelSelector ? ` -l ${opts.labelSelector}` : ''}${opts.fieldSelector ? ` --field-selector ${opts.fieldSelector}` : ''}`
    const list = await this.request(what, async () => {
      const { path } = await this.objects.collectionPath(apiVersion, kind, opts.namespace)
      return this.objects.getJson<{
        items?: KubeObject[]
        metadata?: { resourceVersion?: string; continue?: string }
      }>(path, {
        labelSelector: opts.labelSelector,
        fieldSelector: opts.fieldSelector,
        limit: opts.limit ?? 500,
        continue: continueToken
      })
    })
    const items = list.items ?? []
    for (const i of items) {
      i.apiVersion ??= apiVersion
      i.kind ??= kind
    }
    return {
      items,
      resourceVersion: list.metadata?.resourceVersion ?? '',
      continue: list.metadata?.continue || undefined
    }
  }

  /**
   * Every object of a kind matching the options, page by page (limit 500 + continue). The result's
   * resourceVersion is the first page's (the snapshot the pages belong to): a watch from it replays
   * whatever changed while the later pages were read.
   */
  async list(apiVersion: string, kind: string, opts: ListOptions = {}): Promise<ListResult> {
    const items: KubeObject[] = []
    let token: string | undefined
    let resourceVersion = ''
    do {
      const page = await this.listPage(apiVersion, kind, opts, token)
      items.push(...page.items)
      resourceVersion ||= page.resourceVersion
      token = page.continue
    } while (token)
    return { items, resourceVersion }
  }

  /** The last lines of a container's log ('' when there is none yet). */
  async podLog(
    namespace: string,
    name: string,
    opts: { container?: string; tailLines?: number; previous?: boolean } = {}
  ): Promise<string> {
    try {
      const text = await this.request(
        `logs ${name} -n ${namespace}${opts.container ? ` -c ${opts.container}` : ''}`,
        () =>
          this.core.readNamespacedPodLog({
            name,
            namespace,
            container: opts.container,
            tailLines: opts.tailLines ?? 50,
            previous: opts.previous
          }),
        true
      )
      return typeof text === 'string' ? text : String(text ?? '')
    } catch (e) {
      if (httpStatusOf(e) === 400 || isNotFound(e)) return ''
      throw new KubeRequestError(`logs ${name}`, httpStatusOf(e), messageOf(e), e)
    }
  }

  /** Events about one object, newest last. */
  async eventsFor(namespace: string, name: string, kind?: string): Promise<KubeObject[]> {
    const fieldSelector = `involvedObject.name=${name}${kind ? `,involvedObject.kind=${kind}` : ''}`
    const { items } = await this.list('v1', 'Event', { namespace, fieldSelector })
    const mine = items.filter(
      e => e.involvedObject?.name === name && (!kind || e.involvedObject?.kind === kind)
    )
    const at = (e: KubeObject): string => e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp ?? ''
    return mine.sort((a, b) => at(a).localeCompare(at(b)))
  }

  /** A list+watch source of one kind for watch.ts (client-node Watch on the discovered path). */
  watchSource(apiVersion: string, kind: string, opts: ListOptions & { name?: string } = {}): WatchSource {
    const label =
      opts.name ??
      `${kind}${opts.namespace ? `/${opts.namespace}` : ''}${opts.labelSelector ? `[${opts.labelSelector}]` : ''}`
    const listOpts: ListOptions = {
      namespace: opts.namespace,
      labelSelector: opts.labelSelector,
      fieldSelector: opts.fieldSelector,
      limit: opts.limit
    }
    return {
      name: label,
      list: () => this.list(apiVersion, kind, listOpts),
      watch: async (resourceVersion, onEvent, onDone) => {
        const path = await this.collectionPath(apiVersion, kind, opts.namespace)
        const query: Record<string, string | number | boolean | undefined> = {
          resourceVersion,
          allowWatchBookmarks: true,
          // The server ends the stream before client-node's 30 s inactivity timer would abort it.
          timeoutSeconds: WATCH_TIMEOUT_SECONDS,
          labelSelector: opts.labelSelector,
          fieldSelector: opts.fieldSelector
        }
        await this.bucket.take()
        const controller = await new Watch(this.kc).watch(
          path,
          query,
          (type, object) => onEvent({ type, object: object as KubeObject }),
          err => onDone(err ?? null)
        )
        return { stop: () => controller.abort() }
      }
    }
  }
}
