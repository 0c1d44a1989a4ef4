// Unit-test helper: helm's commands stubbed on the Helm class (src/helm/helm.ts) over releases in
// memory, for modules that run helm through it (stack/helm-release, Run, uninstall); ensureHelm
// still checks the real stand-in on PATH (helm-standin-bin.ts). A mock over a Map, not the stand-in,
// because the stand-in's release changes (sim/helm/upgrade.ts, uninstall.ts) run only as its
// commands, against an API server and a chart repository, and these tests are about what the
// modules above Helm ask and do with its answers; the Helm class itself is tested with the
// stand-in (test/flow/helm). The answers follow the stand-in's: status gives the release's last
// revision or undefined; uninstall removes it and says whether there was one; upgrade --install
// makes it `deployed` (sim/helm/releases.ts's ReleaseStatus) at the chart version asked for, one
// revision on (the chart's name is the chart's last path part; its first deployment kept,
// STUB_FIRST_DEPLOYED for a new one); get values gives `values`; chartCrds gives `crds` (the array
// itself, so a test can fill it later); repo add does nothing. Each call is written into `calls`
// (in the words of `say`, over DEFAULT_HELM_SAY), and the Helm it was made on (`helms`) with its
// options (`opts`). Restore with jest.restoreAllMocks().
import { jest } from '@jest/globals'
import type { ReleaseStatus } from '../../sim/helm/releases.js'
import { Helm, type HelmReleaseStatus, type UpgradeInstallOptions } from '../../src/helm/index.js'
import type { HelmReleaseSpec } from '../../src/model/types.js'

type ChartRef = Parameters<Helm['chartCrds']>[0]

/** The first deployment of a release the stub installs (helm keeps it across upgrades). */
export const STUB_FIRST_DEPLOYED = '2026-12-01T10:00:00.123456789Z'

/** A release as `helm status` reports it: deployed, revision 1, unless `over` says otherwise. */
export const deployedRelease = (
  chartName: string,
  chartVersion: string,
  over: Partial<HelmReleaseStatus> = {}
): HelmReleaseStatus => ({ chartName, chartVersion, revision: 1, status: 'deployed', ...over })

/** A chart of the NVIDIA repository as a component's helm part names it, in a namespace of its name. */
export const nvidiaChart = (
  release: string,
  version: string,
  values: Record<string, unknown>,
  over: Partial<HelmReleaseSpec> = {}
): HelmReleaseSpec => ({
  release,
  chart: `nvidia/${release}`,
  version,
  namespace: release,
  repo: { name: 'nvidia', url: 'https://helm.ngc.nvidia.com/nvidia' },
  values,
  ...over
})

/** How each call is written into `calls`. */
export interface HelmSay {
  status: (release: string, namespace: string) => string
  getValues: (release: string, namespace: string) => string
  repoAdd: (name: string, url: string) => string
  chartCrds: (o: ChartRef) => string
  uninstall: (release: string, namespace: string, timeoutMs: number) => string
  upgradeInstall: (o: UpgradeInstallOptions) => string
}

export const DEFAULT_HELM_SAY: HelmSay = {
  status: (r, ns) => `status ${r} -n ${ns}`,
  getValues: (r, ns) => `get values ${r} -n ${ns}`,
  repoAdd: (n, u) => `repo add ${n} ${u}`,
  chartCrds: o => `crds ${JSON.stringify(o)}`,
  uninstall: (r, ns, t) => `uninstall ${r} -n ${ns} ${t}`,
  upgradeInstall: o => `upgrade ${JSON.stringify(o)}`
}

export interface HelmStubOptions {
  /** The releases there are, by name. */
  releases?: Record<string, HelmReleaseStatus | undefined>
  /** What get values gives (for any release). */
  values?: Record<string, unknown>
  /** What chartCrds gives. */
  crds?: Array<Record<string, any>>
  say?: Partial<HelmSay>
  /** Run after an uninstall (what the release ran going after it). */
  afterUninstall?: (release: string, namespace: string) => void
}

export function stubHelm(o: HelmStubOptions = {}) {
  const say: HelmSay = { ...DEFAULT_HELM_SAY, ...o.say }
  const releases = new Map<string, HelmReleaseStatus>()
  for (const [name, r] of Object.entries(o.releases ?? {})) if (r) releases.set(name, r)
  const values = o.values ?? {}
  const crds = o.crds ?? []
  const calls: string[] = []
  const helms = new Set<Helm>()
  const opts: unknown[] = []
  const on = (helm: Helm, line: string): void => {
    helms.add(helm)
    opts.push((helm as unknown as { opts: unknown }).opts)
    calls.push(line)
  }
  jest.spyOn(Helm.prototype, 'status').mockImplementation(async function (this: Helm, r, ns) {
    on(this, say.status(r, ns))
    return releases.get(r)
  })
  jest.spyOn(Helm.prototype, 'getValues').mockImplementation(async function (this: Helm, r, ns) {
    on(this, say.getValues(r, ns))
    return values
  })
  jest.spyOn(Helm.prototype, 'repoAdd').mockImplementation(async function (this: Helm, n, u) {
    on(this, say.repoAdd(n, u))
  })
  jest.spyOn(Helm.prototype, 'chartCrds').mockImplementation(async function (this: Helm, c) {
    on(this, say.chartCrds(c))
    return crds
  })
  jest.spyOn(Helm.prototype, 'uninstall').mockImplementation(async function (this: Helm, r, ns, t) {
    on(this, say.uninstall(r, ns, t))
    const had = releases.delete(r)
    o.afterUninstall?.(r, ns)
    return had
  })
  jest.spyOn(Helm.prototype, 'upgradeInstall').mockImplementation(async function (this: Helm, u) {
    on(this, say.upgradeInstall(u))
    const next: HelmReleaseStatus = {
      chartName: u.chart.split('/').pop()!,
      chartVersion: u.version,
      revision: (releases.get(u.release)?.revision ?? 0) + 1,
      status: 'deployed' satisfies ReleaseStatus,
      firstDeployed: releases.get(u.release)?.firstDeployed ?? STUB_FIRST_DEPLOYED
    }
    releases.set(u.release, next)
    return next
  })
  return { calls, helms, opts, releases, crds }
}
