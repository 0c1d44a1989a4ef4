// Drift of a helm release, read-only: status, chart version and every user value path; a Reader gets
// the chart version from the release's objects. Docs: docs/drift.md#how-it-reads, docs/security.md.
import { HelmCommandError, upgradeReason, type Helm, type HelmReleaseStatus } from '../helm/index.js'
import type { KubeReader } from '../kube/client.js'
import { helmSecretsPermission } from '../model/permissions.js'
import type { KubeObject } from '../kube/types.js'
import { releaseName, type HelmReleaseSpec } from '../model/types.js'
import type { DriftItem } from './item.js'
import { describeValues, formatPath, valueDifferences } from './paths.js'

export interface ReleaseDrift {
  items: DriftItem[]
  /** The release as read (undefined: not installed). */
  status?: HelmReleaseStatus
  /** The differing value paths, relative to the values (`driver.rdma.useHostMofed`). */
  valuePaths: string[]
  /** Set when the release could only be read from its objects: what was not compared, and why. */
  notCompared?: string
}

const bare = (v: string): string => v.trim().replace(/^v/, '')

export { releaseName }

/** The annotations helm puts on every object of a release, and the chart label the charts set. */
export const HELM_RELEASE_NAME = 'meta.helm.sh/release-name'
export const HELM_RELEASE_NAMESPACE = 'meta.helm.sh/release-namespace'
export const HELM_CHART_LABEL = 'helm.sh/chart'

/** helm failed because the identity may not read the release Secrets of the namespace. */
export function secretsForbidden(e: unknown): boolean {
  return e instanceof HelmCommandError && /secrets(?: "[^"]*")? is forbidden/.test(e.stderr)
}

/**
 * The release's chart version as its Deployments say (the operator's): those helm annotated as the
 * release's and labelled `helm.sh/chart: <chart>-<version>` by the chart itself (a subchart's
 * objects carry their own chart's name and are left out). Undefined when none is found.
 */
export async function chartVersionFromObjects(
  kube: KubeReader,
  spec: Pick<HelmReleaseSpec, 'release' | 'namespace' | 'chart'>
): Promise<string | undefined> {
  const chart = spec.chart.slice(spec.chart.lastIndexOf('/') + 1)
  const { items } = await kube.list('apps/v1', 'Deployment', { namespace: spec.namespace })
  const ours = (o: KubeObject): boolean =>
    o.metadata.annotations?.[HELM_RELEASE_NAME] === spec.release &&
    o.metadata.annotations?.[HELM_RELEASE_NAMESPACE] === spec.namespace
  const versions = new Set(
    items
      .filter(ours)
      .map(o => o.metadata.labels?.[HELM_CHART_LABEL] ?? '')
      .filter(l => l.startsWith(`${chart}-`))
      .map(l => l.slice(chart.length + 1))
  )
  return versions.size ? [...versions].sort().join(', ') : undefined
}

/** The release compared as far as its objects tell: present, and its chart version. */
async function releaseDriftFromObjects(
  kube: KubeReader,
  spec: HelmReleaseSpec,
  component: string,
  upgrade: string
): Promise<ReleaseDrift> {
  const name = releaseName(spec)
  const version = await chartVersionFromObjects(kube, spec)
  const why = helmSecretsPermission(spec.namespace)
  if (!version)
    return {
      items: [
        {
          component,
          field: name,
          desired: `deployed ${spec.chart} ${spec.version}`,
          actual: `not installed in namespace ${spec.namespace} (no Deployment of the release)`,
          fixableByApply: true,
          hint: upgrade
        }
      ],
      valuePaths: [],
      notCompared: `${name}: no object of the release found; status and values not compared (${why})`
    }
  const items: DriftItem[] =
    bare(version) === bare(spec.version)
      ? []
      : [
          {
            component,
            field: `${name} chart`,
            desired: spec.version,
            actual: version,
            fixableByApply: true,
            hint: upgrade
          }
        ]
  return {
    items,
    // What the extras need: the release is there, at this chart version (status not known).
    status: {
      chartName: spec.chart.slice(spec.chart.lastIndexOf('/') + 1),
      chartVersion: version,
      revision: 0,
      status: 'unknown'
    },
    valuePaths: [],
    notCompared: `${name}: chart version compared from its released objects; status and values not compared (${why})`
  }
}

export async function releaseDrift(
  helm: Helm,
  spec: HelmReleaseSpec,
  component: string,
  kube?: KubeReader
): Promise<ReleaseDrift> {
  const name = releaseName(spec)
  // What apply does, not a command to paste: apply passes the desired values, which a bare
  // `helm upgrade --install` would not.
  const upgrade = `apply upgrades release ${spec.release} in ${spec.namespace} to ${spec.chart} ${spec.version} with the desired values`
  let status: HelmReleaseStatus | undefined
  try {
    status = await helm.status(spec.release, spec.namespace)
  } catch (e) {
    if (!kube || !secretsForbidden(e)) throw e
    return releaseDriftFromObjects(kube, spec, component, upgrade)
  }
  if (!status)
    return {
      items: [
        {
          component,
          field: name,
          desired: `deployed ${spec.chart} ${spec.version}`,
          actual: `not installed in namespace ${spec.namespace}`,
          fixableByApply: true,
          hint: upgrade
        }
      ],
      valuePaths: []
    }
  const items: DriftItem[] = []
  if (status.status !== 'deployed') {
    const pending = status.status.startsWith('pending-')
    items.push({
      component,
      field: `${name} status`,
      desired: 'deployed',
      actual: `${status.status} (revision ${status.revision})`,
      fixableByApply: !pending,
      hint: pending
        ? `another helm operation is in progress or was interrupted; wait for it, or roll back (helm rollback ${spec.release} -n ${spec.namespace}) and apply`
        : upgrade
    })
  }
  if (bare(status.chartVersion) !== bare(spec.version))
    items.push({
      component,
      field: `${name} chart`,
      desired: spec.version,
      actual: status.chartVersion,
      fixableByApply: true,
      hint: upgrade
    })
  const values = await helm.getValues(spec.release, spec.namespace)
  const live = JSON.parse(JSON.stringify(values ?? {}))
  const desired = JSON.parse(JSON.stringify(spec.values ?? {}))
  const diffs = valueDifferences(desired, live, [{ key: 'values' }])
  for (const d of diffs)
    items.push({
      component,
      field: `${name} ${formatPath(d.path)}`,
      ...describeValues(d.desired, d.actual),
      fixableByApply: true,
      hint: `${upgrade} with the desired values (user values are replaced, not merged)`
    })
  // The same decision apply makes: every reason it would upgrade shows up above.
  if (items.length === 0 && upgradeReason(spec, { ...status, values }) !== undefined)
    items.push({
      component,
      field: name,
      desired: 'as desired',
      actual: upgradeReason(spec, { ...status, values }) ?? '',
      fixableByApply: true,
      hint: upgrade
    })
  return { items, status, valuePaths: diffs.map(d => formatPath(d.path.slice(1))) }
}
