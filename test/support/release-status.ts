// A helm release's status as `helm status` reports a deployed one, for the tests of what the action
// reads of its releases.
import type { HelmReleaseStatus } from '../../src/helm/index.js'

/** Release status `deployed` of this chart, version and revision, with `over` changed. */
export const deployedStatus = (
  chartName: string,
  chartVersion: string,
  revision: number,
  over: Partial<HelmReleaseStatus> = {}
): HelmReleaseStatus => ({ chartName, chartVersion, revision, status: 'deployed', ...over })
