// Drift of a helm release, read-only (`helm status` and `helm get values`, never an upgrade): not
// installed, a status other than deployed, another chart version, and every user value path that
// differs from the desired values (compared as apply compares them: canonical JSON).
import { upgradeReason, type Helm, type HelmReleaseStatus } from '../helm/index.js'
import { releaseName, type HelmReleaseSpec } from '../model/types.js'
import type { DriftItem } from '../report/report.js'
import { describeValues, formatPath, valueDifferences } from './paths.js'

export interface ReleaseDrift {
  items: DriftItem[]
  /** The release as read (undefined: not installed). */
  status?: HelmReleaseStatus
  /** The differing value paths, relative to the values (`driver.rdma.useHostMofed`). */
  valuePaths: string[]
}

const bare = (v: string): string => v.trim().replace(/^v/, '')

export { releaseName }

export async function releaseDrift(
  helm: Helm,
  spec: HelmReleaseSpec,
  component: string
): Promise<ReleaseDrift> {
  const name = releaseName(spec)
  // What apply does, not a command to paste: apply passes the desired values, which a bare
  // `helm upgrade --install` would not.
  const upgrade = `apply upgrades release ${spec.release} in ${spec.namespace} to ${spec.chart} ${spec.version} with the desired values`
  const status = await helm.status(spec.release, spec.namespace)
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
