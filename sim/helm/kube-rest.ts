// The helm stand-in's connection to the API server: the kubeconfig's cluster and credentials
// (kubeconfig.ts, read as client-go reads them); requests are plain JSON over node:https. Knows the
// REST paths of the kinds the simulated charts touch.
import https from 'node:https'
import http from 'node:http'
import type { StandinKubeConfig } from './kubeconfig.js'

export interface KindInfo {
  apiVersion: string
  kind: string
  plural: string
  namespaced: boolean
}

/** Kinds the stand-in reads or writes (helm resolves these through discovery; the set here is fixed). */
export const KINDS: KindInfo[] = [
  { apiVersion: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false },
  { apiVersion: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true },
  { apiVersion: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true },
  { apiVersion: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true },
  { apiVersion: 'apps/v1', kind: 'Deployment', plural: 'deployments', namespaced: true },
  { apiVersion: 'apps/v1', kind: 'DaemonSet', plural: 'daemonsets', namespaced: true },
  {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false
  },
  { apiVersion: 'nvidia.com/v1', kind: 'ClusterPolicy', plural: 'clusterpolicies', namespaced: false },
  {
    apiVersion: 'nfd.k8s-sigs.io/v1alpha1',
    kind: 'NodeFeatureRule',
    plural: 'nodefeaturerules',
    namespaced: false
  }
]

export function kindInfo(apiVersion: string, kind: string): KindInfo {
  const k = KINDS.find(x => x.apiVersion === apiVersion && x.kind === kind)
  if (!k) throw new Error(`resource mapping not found for kind "${kind}" in version "${apiVersion}"`)
  return k
}

/** An API error with the server's Status (helm prints the Status message). */
export class KubeApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    /** Seconds the server asked to wait before retrying (429 / 5xx with Retry-After). */
    readonly retryAfterSeconds?: number
  ) {
    super(message)
  }
}

export function isNotFound(e: unknown): boolean {
  return e instanceof KubeApiError && e.code === 404
}

export interface KubeObj {
  apiVersion: string
  kind: string
  metadata: { name: string; namespace?: string; [k: string]: any }
  [k: string]: any
}

export class KubeRest {
  constructor(private readonly kc: StandinKubeConfig) {}

  /** The namespace of the kubeconfig's current context ('default' when unset). */
  contextNamespace(): string {
    return this.kc.namespace
  }

  path(info: KindInfo, namespace: string | undefined, name?: string): string {
    const base = info.apiVersion.includes('/') ? `/apis/${info.apiVersion}` : `/api/${info.apiVersion}`
    const ns = info.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : ''
    return `${base}${ns}/${info.plural}${name ? `/${encodeURIComponent(name)}` : ''}`
  }

  /**
   * One request; a 429 (or 5xx) with Retry-After is retried after that many seconds, up to 10
   * times, as client-go's request loop does for helm.
   */
  async request(method: string, path: string, body?: unknown): Promise<any> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.requestOnce(method, path, body)
      } catch (e) {
        const wait = e instanceof KubeApiError ? e.retryAfterSeconds : undefined
        if (wait === undefined || attempt >= 10) throw e
        await new Promise(r => setTimeout(r, wait * 1000))
      }
    }
  }

  private async requestOnce(method: string, path: string, body?: unknown): Promise<any> {
    const url = new URL(path, this.kc.server)
    const { headers, ...tlsOptions } = await this.kc.connection()
    const opts: https.RequestOptions = {
      method,
      hostname: url.hostname,
      port: url.port,
      path: url.pathname + url.search,
      headers: { Accept: 'application/json', ...headers },
      ...tlsOptions
    }
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body))
    if (payload) {
      opts.headers = { ...opts.headers, 'Content-Type': 'application/json', 'Content-Length': payload.length }
    }
    const lib = url.protocol === 'http:' ? http : https
    const { status, text, retryAfter } = await new Promise<{
      status: number
      text: string
      retryAfter?: string
    }>((resolve, reject) => {
      const req = lib.request(opts as https.RequestOptions, res => {
        const chunks: Buffer[] = []
        res.on('data', c => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            retryAfter: res.headers['retry-after'] as string | undefined
          })
        )
        res.on('error', reject)
      })
      req.on('error', err =>
        reject(new Error(`Kubernetes cluster unreachable: Get "${url.href}": ${(err as Error).message}`))
      )
      if (payload) req.write(payload)
      req.end()
    })
    let parsed: any
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      parsed = undefined
    }
    if (status < 200 || status > 299) {
      const message = parsed?.message ?? `the server responded with status ${status}: ${text.slice(0, 200)}`
      const after =
        (status === 429 || status >= 500) && retryAfter && /^\d+$/.test(retryAfter)
          ? Number(retryAfter)
          : undefined
      throw new KubeApiError(status, parsed?.reason ?? 'Unknown', message, after)
    }
    return parsed
  }

  get(info: KindInfo, namespace: string | undefined, name: string): Promise<KubeObj> {
    return this.request('GET', this.path(info, namespace, name))
  }

  async tryGet(info: KindInfo, namespace: string | undefined, name: string): Promise<KubeObj | undefined> {
    try {
      return await this.get(info, namespace, name)
    } catch (e) {
      if (isNotFound(e)) return undefined
      throw e
    }
  }

  async list(info: KindInfo, namespace: string | undefined, labelSelector?: string): Promise<KubeObj[]> {
    const items: KubeObj[] = []
    let cont: string | undefined
    do {
      const q = new URLSearchParams()
      if (labelSelector) q.set('labelSelector', labelSelector)
      q.set('limit', '500')
      if (cont) q.set('continue', cont)
      const res = await this.request('GET', `${this.path(info, namespace)}?${q.toString()}`)
      items.push(...(res?.items ?? []))
      cont = res?.metadata?.continue || undefined
    } while (cont)
    return items
  }

  create(obj: KubeObj): Promise<KubeObj> {
    const info = kindInfo(obj.apiVersion, obj.kind)
    return this.request('POST', this.path(info, obj.metadata.namespace), obj)
  }

  replace(obj: KubeObj): Promise<KubeObj> {
    const info = kindInfo(obj.apiVersion, obj.kind)
    return this.request('PUT', this.path(info, obj.metadata.namespace, obj.metadata.name), obj)
  }

  async delete(info: KindInfo, namespace: string | undefined, name: string): Promise<void> {
    await this.request('DELETE', this.path(info, namespace, name), {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      propagationPolicy: 'Background'
    })
  }
}
