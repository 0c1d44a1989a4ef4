// The helm half of a component: compare the deployed release and `helm upgrade --install --wait` only when
// it differs; also the CRDs, status and uninstall. Docs: docs/design.md#five-walks-of-the-same-list.
import { ensureHelm, Helm, upgradeReason, type HelmReleaseStatus } from '../helm/index.js'
import type { HelmReleaseSpec } from '../model/types.js'
import type { Settings } from '../settings/settings.js'
import type { Log } from '../log/index.js'

export interface HelmPlan {
  needed: boolean
  reason: string
  /** The chart version installed now (absent: not installed). */
  installedVersion?: string
  /** The release as it is now (absent: not installed): its chart and first deployment say whose it is. */
  status?: HelmReleaseStatus
}

export interface HelmReleases {
  /** Reads the release (status, values) and says whether an upgrade is needed. */
  plan(spec: HelmReleaseSpec): Promise<HelmPlan>
  /**
   * `helm upgrade --install --wait --timeout` (`noHooks`: `--no-hooks`); `installed` when the
   * release did not exist before. With `expectAbsent`, a release that appeared since the plan is
   * refused (never upgraded as if installed).
   */
  upgrade(
    spec: HelmReleaseSpec,
    timeoutMs: number,
    o?: { noHooks?: boolean; expectAbsent?: boolean }
  ): Promise<{ installed: boolean; revision: number; status: HelmReleaseStatus }>
  /** The CRDs an install of the desired chart version and values creates (`helm template --include-crds`). */
  crds(spec: HelmReleaseSpec): Promise<Array<Record<string, any>>>
  /** The release's status, undefined when there is none. */
  status(release: string, namespace: string): Promise<HelmReleaseStatus | undefined>
  /** `helm uninstall --wait`; false when there was no such release. */
  uninstall(release: string, namespace: string, timeoutMs: number): Promise<boolean>
}

export function createHelmReleases(settings: Settings, kubeconfigPath: string, log: Log): HelmReleases {
  let helm: Promise<Helm> | undefined
  const reposAdded = new Set<string>()
  const getHelm = (): Promise<Helm> => {
    helm ??= ensureHelm(settings.stack.helmVersion, { log, pathSha256: settings.stack.helmSha256 }).then(
      helmPath => new Helm({ helmPath, kubeconfig: kubeconfigPath })
    )
    return helm
  }
  const addRepo = async (h: Helm, spec: HelmReleaseSpec): Promise<void> => {
    if (reposAdded.has(spec.repo.name)) return
    await h.repoAdd(spec.repo.name, spec.repo.url)
    reposAdded.add(spec.repo.name)
  }
  return {
    async plan(spec) {
      const h = await getHelm()
      const status = await h.status(spec.release, spec.namespace)
      const values = status ? await h.getValues(spec.release, spec.namespace) : undefined
      const reason = upgradeReason(
        { version: spec.version, values: spec.values },
        status ? { chartVersion: status.chartVersion, status: status.status, values } : undefined
      )
      return {
        needed: reason !== undefined,
        reason: reason ?? 'release deployed with the desired chart and values',
        ...(status ? { installedVersion: status.chartVersion, status } : {})
      }
    },
    async crds(spec) {
      const h = await getHelm()
      await addRepo(h, spec)
      return h.chartCrds({
        release: spec.release,
        chart: spec.chart,
        version: spec.version,
        namespace: spec.namespace,
        values: spec.values
      })
    },
    async status(release, namespace) {
      return (await getHelm()).status(release, namespace)
    },
    async uninstall(release, namespace, timeoutMs) {
      log.info(`helm uninstall ${release} -n ${namespace} --wait`)
      return (await getHelm()).uninstall(release, namespace, timeoutMs)
    },
    async upgrade(spec, timeoutMs, o = {}) {
      const h = await getHelm()
      await addRepo(h, spec)
      const before = await h.status(spec.release, spec.namespace)
      if (before && o.expectAbsent)
        throw new Error(
          `helm release ${spec.release} -n ${spec.namespace} (chart ${before.chartName} ${before.chartVersion}) appeared while this run was about to install it; it is left alone`
        )
      log.info(
        `helm upgrade --install ${spec.release} ${spec.chart} --version ${spec.version} -n ${spec.namespace} --wait${o.noHooks ? ' --no-hooks' : ''}`
      )
      const st = await h.upgradeInstall({
        release: spec.release,
        chart: spec.chart,
        version: spec.version,
        namespace: spec.namespace,
        values: spec.values,
        createNamespace: true,
        wait: true,
        timeoutMs,
        ...(o.noHooks ? { noHooks: true } : {})
      })
      log.info(
        `helm: ${spec.release} revision ${st.revision} ${st.status} (chart ${st.chartName} ${st.chartVersion})`
      )
      return { installed: !before, revision: st.revision, status: st }
    }
  }
}
