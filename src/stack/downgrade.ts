// Refusing a downgrade before apply writes anything, and the CRDs stamped with their chart version.
// Docs: docs/security.md#downgrades-and-the-charts-crds, docs/day-two.md#downgrading.
import { compareVersions, isNewerVersion } from '../helm/index.js'
import type { KubeObject } from '../kube/types.js'

/** A component whose installed version is newer than the desired one. */
export interface Downgrade {
  component: string
  /** What carries the version, e.g. `chart nvidia/gpu-operator`. */
  what: string
  live: string
  desired: string
}

/** A component's installed version could not be read (before any write): the run stops there. */
export class VersionReadError extends Error {
  constructor(
    readonly component: string,
    override readonly cause: unknown
  ) {
    super(
      `could not read the installed version (read before any write, to refuse a downgrade): ${
        cause instanceof Error ? cause.message : String(cause)
      }`
    )
    this.name = 'VersionReadError'
  }
}

/** The downgrade `live` → `desired` is, or undefined when `live` is not known to be newer. */
export function downgradeOf(d: Downgrade): Downgrade | undefined {
  return isNewerVersion(d.live, d.desired) ? d : undefined
}

/** Why the run is refused, naming each component, both versions and the input that allows it. */
export function downgradeRefusal(found: Downgrade[]): string {
  const each = found.map(d => `${d.component}: ${d.what} ${d.live} is installed, ${d.desired} was asked for`)
  return (
    `refusing to downgrade (${each.join('; ')}). A downgrade rolls the drivers back node by node and can ` +
    "put the older chart's CRDs in place of newer ones; set allow-downgrade: true to do it anyway (a CRD " +
    'applied from a newer version of the chart is kept), or ask for the installed version. Nothing was written.'
  )
}

/** The annotations that say which chart version the action applied a CRD from. */
export const CRD_SOURCE = {
  chart: 'aks-rdma-action/chart',
  chartVersion: 'aks-rdma-action/chart-version'
} as const

/** The CRD as the action applies it: stamped with the chart and version it comes from. */
export function stampCrd(crd: KubeObject, chart: { name: string; version: string }): KubeObject {
  return {
    ...crd,
    metadata: {
      ...crd.metadata,
      annotations: {
        ...(crd.metadata.annotations ?? {}),
        [CRD_SOURCE.chart]: chart.name,
        [CRD_SOURCE.chartVersion]: chart.version
      }
    }
  }
}

/**
 * The newer chart version a live CRD was applied from, when it is newer than `chart`'s: read from
 * the action's annotations, compared only for the same chart. A CRD without them (helm installed it
 * with the chart's first install, or someone else applied it) or from another chart carries no
 * version that can be compared, and is taken as not newer.
 */
export function newerCrdSource(
  live: KubeObject | undefined,
  chart: { name: string; version: string }
): string | undefined {
  const a = live?.metadata?.annotations ?? {}
  const version = a[CRD_SOURCE.chartVersion]
  if (a[CRD_SOURCE.chart] !== chart.name || typeof version !== 'string') return undefined
  return (compareVersions(version, chart.version) ?? 0) > 0 ? version : undefined
}

/** The chart's name in `repo/chart` (`nvidia/gpu-operator` → `gpu-operator`). */
export const chartName = (chart: string): string => chart.slice(chart.lastIndexOf('/') + 1)
