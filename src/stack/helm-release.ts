// The helm half of a component: compare the deployed release (chart version, status, user
// values) with the desired one using src/helm, and only when they differ add the repository and
// run `helm upgrade --install --wait` bounded by what is left of the step's time.
import { ensureHelm, Helm, upgradeReason } from '../helm/index.js'
import type { HelmReleaseSpec } from '../model/types.js'
import type { Settings } from '../settings/settings.js'
import type { Log } from '../log/index.js'

export interface HelmPlan {
  needed: boolean
  reason: string
}

export interface HelmReleases {
  /** Reads the release (status, values) and says whether an upgrade is needed. */
  plan(spec: HelmReleaseSpec): Promise<HelmPlan>
  /** `helm upgrade --install --wait --timeout`; `installed` when the release did not exist before. */
  upgrade(spec: HelmReleaseSpec, timeoutMs: number): Promise<{ installed: boolean; revision: number }>
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
        reason: reason ?? 'release deployed with the desired chart and values'
      }
    },
    async upgrade(spec, timeoutMs) {
      const h = await getHelm()
      if (!reposAdded.has(spec.repo.name)) {
        await h.repoAdd(spec.repo.name, spec.repo.url)
        reposAdded.add(spec.repo.name)
      }
      const before = await h.status(spec.release, spec.namespace)
      log.info(
        `helm upgrade --install ${spec.release} ${spec.chart} --version ${spec.version} -n ${spec.namespace} --wait`
      )
      const st = await h.upgradeInstall({
        release: spec.release,
        chart: spec.chart,
        version: spec.version,
        namespace: spec.namespace,
        values: spec.values,
        createNamespace: true,
        wait: true,
        timeoutMs
      })
      log.info(
        `helm: ${spec.release} revision ${st.revision} ${st.status} (chart ${st.chartName} ${st.chartVersion})`
      )
      return { installed: !before, revision: st.revision }
    }
  }
}
