// CustomResourceDefinitions the simulated charts carry in their crds/ directories (helm installs them
// on first install only, never on upgrade, and skips those already present): the upstream files of
// the chart's version (sim/kube/crds), its own and, when the subchart is enabled, those of its
// node-feature-discovery subchart.
import { chartCrds } from '../kube/crds/index.js'
import type { KubeObj } from './kube-rest.js'

/** The CRDs of `chart` at `version` (its own crds/ directory). */
export function chartOwnCrds(chart: string, version: string): KubeObj[] {
  return chartCrds(chart, version) as KubeObj[]
}

/** The CRDs of the chart's node-feature-discovery subchart. */
export function nfdSubchartCrds(chart: string, version: string): KubeObj[] {
  return chartCrds(chart, version, 'node-feature-discovery') as KubeObj[]
}
