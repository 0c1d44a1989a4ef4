// `helm template [NAME] CHART`: renders the chart locally with the values given (nothing is sent to
// the cluster), printing each object as helm does (`---` and `# Source: <path>`); with
// `--include-crds` the chart's CRDs come first, those of its enabled subcharts included.
import { CHARTS } from './charts.js'
import type { HelmContext } from './context.js'
import { HelmFailure } from './errors.js'
import { parseFlags, type FlagSpec } from './flags.js'
import type { KubeObj } from './kube-rest.js'
import { manifestText, renderChart } from './render.js'
import { resolveChart } from './repos.js'
import { validateReleaseName } from './upgrade.js'
import { coalesce, userValues } from './values.js'

export const TEMPLATE_FLAGS: FlagSpec[] = [
  { name: 'version', kind: 'string' },
  { name: 'values', short: 'f', kind: 'array' },
  { name: 'set', kind: 'array' },
  { name: 'set-string', kind: 'array' },
  { name: 'include-crds', kind: 'bool' },
  { name: 'skip-crds', kind: 'bool' },
  { name: 'devel', kind: 'bool' },
  { name: 'kube-version', kind: 'string' },
  { name: 'api-versions', short: 'a', kind: 'array' }
]

/** Where a CRD lives in the chart: its own crds/ folder, or an NFD subchart's. */
function crdSource(chart: string, crd: KubeObj): string {
  const group = String((crd.spec as { group?: string } | undefined)?.group ?? '')
  return group === 'nfd.k8s-sigs.io'
    ? `${chart}/charts/node-feature-discovery/crds/nfd-api-crds.yaml`
    : `${chart}/crds/${group}_${crd.metadata.name.split('.')[0]}.yaml`
}

export function runTemplate(ctx: HelmContext, argv: string[]): number {
  const { args, flags } = parseFlags(argv, TEMPLATE_FLAGS)
  if (args.length < 1 || args.length > 2)
    throw new HelmFailure(
      `"helm template" requires at least 1 argument\n\nUsage:  helm template [NAME] [CHART] [flags]`
    )
  const [name, chartRef] = args.length === 2 ? args : ['release-name', args[0]]
  validateReleaseName(name)
  const { chart, version } = resolveChart(ctx.paths, chartRef, (flags.version as string) ?? '')
  if (!CHARTS[chart.name]) throw new HelmFailure(`chart ${chart.name} not served`)
  const user = userValues(
    (flags.values as string[]) ?? [],
    (flags.set as string[]) ?? [],
    (flags['set-string'] as string[]) ?? []
  )
  const rendered = renderChart({
    release: name,
    namespace: ctx.namespace,
    chart: chart.name,
    version: version.version,
    appVersion: version.appVersion,
    values: coalesce(user, chart.defaults(version.version))
  })
  const crds = flags['include-crds']
    ? rendered.crds.map(obj => ({ source: crdSource(chart.name, obj), obj }))
    : []
  ctx.io.stdout(manifestText([...crds, ...rendered.templates]))
  return 0
}
