// Release storage exactly as helm 3's Secret driver keeps it: one Secret per revision named
// `sh.helm.release.v1.<name>.v<revision>`, type `helm.sh/release.v1`, labels owner/name/status/version/
// modifiedAt, and data.release = base64(gzip(JSON release)) (base64 once more on the wire).
import { gunzipSync, gzipSync } from 'node:zlib'
import type { KubeObj, KubeRest } from './kube-rest.js'
import { KINDS } from './kube-rest.js'
import type { Values } from './values.js'

export type ReleaseStatus =
  | 'unknown'
  | 'deployed'
  | 'uninstalled'
  | 'superseded'
  | 'failed'
  | 'uninstalling'
  | 'pending-install'
  | 'pending-upgrade'
  | 'pending-rollback'

export interface Release {
  name: string
  info: {
    first_deployed: string
    last_deployed: string
    deleted: string
    description: string
    status: ReleaseStatus
    notes?: string
  }
  chart: {
    metadata: {
      name: string
      home?: string
      version: string
      description?: string
      apiVersion: string
      appVersion: string
      kubeVersion?: string
      type?: string
    }
    lock: null
    templates: Array<{ name: string; data: string }>
    values: Values
    schema: null
    files: Array<{ name: string; data: string }>
  }
  config?: Values
  manifest: string
  hooks?: unknown[]
  version: number
  namespace: string
}

const SECRET = KINDS.find(k => k.kind === 'Secret')!

export const secretName = (name: string, revision: number): string =>
  `sh.helm.release.v1.${name}.v${revision}`

/** The value of the Secret's data.release (what the API returns: base64 of helm's base64(gzip(json))). */
export function encodeRelease(rel: Release): string {
  const inner = gzipSync(Buffer.from(JSON.stringify(rel))).toString('base64')
  return Buffer.from(inner).toString('base64')
}

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b, 0x08])

export function decodeRelease(data: string): Release {
  const inner = Buffer.from(Buffer.from(data, 'base64').toString('utf8'), 'base64')
  const json = inner.subarray(0, 3).equals(GZIP_MAGIC) ? gunzipSync(inner) : inner
  return JSON.parse(json.toString('utf8')) as Release
}

export function releaseSecret(rel: Release): KubeObj {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'helm.sh/release.v1',
    metadata: {
      name: secretName(rel.name, rel.version),
      namespace: rel.namespace,
      labels: {
        name: rel.name,
        owner: 'helm',
        status: rel.info.status,
        version: String(rel.version),
        modifiedAt: String(Math.floor(Date.now() / 1000))
      }
    },
    data: { release: encodeRelease(rel) }
  }
}

/** Go's RFC3339Nano time as helm stores it. */
export const nowStamp = (): string => new Date().toISOString()

/** helm's release storage over the Secrets of one namespace (or all namespaces for listing). */
export class ReleaseStore {
  constructor(private readonly kube: KubeRest) {}

  /** All revisions of a release, oldest first. */
  async history(name: string, namespace: string): Promise<Release[]> {
    const secrets = await this.kube.list(SECRET, namespace, `owner=helm,name=${name}`)
    return secrets
      .map(s => decodeRelease(s.data?.release ?? ''))
      .filter(r => r.name === name)
      .sort((a, b) => a.version - b.version)
  }

  async last(name: string, namespace: string): Promise<Release | undefined> {
    const h = await this.history(name, namespace)
    return h[h.length - 1]
  }

  /** Every release's revisions in a namespace (undefined = all namespaces). */
  async all(namespace: string | undefined): Promise<Release[]> {
    const secrets = await this.kube.list(SECRET, namespace, 'owner=helm')
    return secrets.map(s => decodeRelease(s.data?.release ?? ''))
  }

  async create(rel: Release): Promise<void> {
    try {
      await this.kube.create(releaseSecret(rel))
    } catch (e) {
      const err = e as Error & { code?: number }
      if (err.code === 409)
        throw new Error(
          `create: failed to create: secrets "${secretName(rel.name, rel.version)}" already exists`
        )
      throw new Error(`create: failed to create: ${err.message}`)
    }
  }

  async update(rel: Release): Promise<void> {
    const existing = await this.kube.get(SECRET, rel.namespace, secretName(rel.name, rel.version))
    const next = releaseSecret(rel)
    next.metadata.resourceVersion = existing.metadata.resourceVersion
    try {
      await this.kube.replace(next)
    } catch (e) {
      throw new Error(`update: failed to update: ${(e as Error).message}`)
    }
  }

  async remove(rel: Release): Promise<void> {
    await this.kube.delete(SECRET, rel.namespace, secretName(rel.name, rel.version))
  }
}

/**
 * Counts for the simulate report from release Secrets (any namespace): installs = releases whose
 * revision 1 exists, upgrades = revisions above 1. Revisions pruned by --history-max are not counted.
 */
export function helmReleaseCounts(secrets: any[]): { installs: number; upgrades: number } {
  let installs = 0
  let upgrades = 0
  for (const s of secrets) {
    if (s?.type !== 'helm.sh/release.v1' || s?.metadata?.labels?.owner !== 'helm') continue
    const v = Number(s.metadata.labels.version)
    if (v === 1) installs++
    else if (v > 1) upgrades++
  }
  return { installs, upgrades }
}
