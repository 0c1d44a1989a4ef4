// The simulated charts' templates: from a release's name, namespace, chart version and coalesced
// values, the objects the real chart would render (operator Deployment, the node-feature-discovery
// subchart when enabled, the network operator's default NodeFeatureRule, the GPU operator's
// ClusterPolicy built from values), in helm's install order, plus the CRDs and the manifest text.
// Containers carry no `command`/`args` (the images' entrypoints run): the simulated kubelet runs any
// container with a command through its shell, where the operators' binaries do not exist.
import { parseAllDocuments, stringify } from 'yaml'
import type { KubeObj } from './kube-rest.js'
import { chartOwnCrds, nfdSubchartCrds } from './crds.js'
import { isMap, type Values } from './values.js'

export interface RenderInput {
  release: string
  namespace: string
  chart: string
  version: string
  appVersion: string
  values: Values
}

export interface RenderedTemplate {
  /** Template path, e.g. `gpu-operator/templates/operator.yaml`. */
  source: string
  obj: KubeObj
}

export interface RenderResult {
  templates: RenderedTemplate[]
  crds: KubeObj[]
}

/** helm's fullname helper: override, else release name when it contains the chart name, else `release-chart`. */
export function fullname(
  release: string,
  chart: string,
  nameOverride?: string,
  fullnameOverride?: string
): string {
  const cut = (s: string): string => s.slice(0, 63).replace(/-+$/, '')
  if (fullnameOverride) return cut(fullnameOverride)
  const name = nameOverride || chart
  return cut(release.includes(name) ? release : `${release}-${name}`)
}

function commonLabels(input: RenderInput, name: string): Record<string, string> {
  return {
    'helm.sh/chart': `${input.chart}-${input.version}`,
    'app.kubernetes.io/name': name,
    'app.kubernetes.io/instance': input.release,
    'app.kubernetes.io/version': input.appVersion,
    'app.kubernetes.io/managed-by': 'Helm'
  }
}

function workload(
  kind: 'Deployment' | 'DaemonSet',
  name: string,
  namespace: string,
  labels: Record<string, string>,
  selector: Record<string, string>,
  pod: Values,
  replicas = 1
): KubeObj {
  const spec: Values = {
    selector: { matchLabels: selector },
    template: { metadata: { labels: { ...selector } }, spec: pod }
  }
  if (kind === 'Deployment') {
    spec.replicas = replicas
    spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } }
  } else {
    spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } }
  }
  return { apiVersion: 'apps/v1', kind, metadata: { name, namespace, labels }, spec }
}

const nonEmpty = (v: unknown): boolean =>
  v !== undefined &&
  v !== null &&
  v !== '' &&
  !(Array.isArray(v) && v.length === 0) &&
  !(isMap(v) && Object.keys(v).length === 0)

/** Adds pod scheduling fields only when set, as the templates' `{{- with }}` blocks do. */
function scheduling(src: Values | undefined): Values {
  const out: Values = {}
  for (const k of ['tolerations', 'nodeSelector', 'affinity', 'priorityClassName'])
    if (nonEmpty(src?.[k])) out[k] = src![k]
  return out
}

function serviceAccount(name: string, namespace: string, labels: Record<string, string>): KubeObj {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace, labels } }
}

/** The node-feature-discovery subchart (master, worker DaemonSet, gc, their config). */
function renderNfd(input: RenderInput, parent: string, nfd: Values): RenderedTemplate[] {
  const name = fullname(input.release, 'node-feature-discovery', nfd.nameOverride, nfd.fullnameOverride)
  const ns = input.namespace
  const src = (f: string): string => `${parent}/charts/node-feature-discovery/templates/${f}`
  const labels = {
    ...commonLabels(input, 'node-feature-discovery'),
    'helm.sh/chart': 'node-feature-discovery-0.18.3'
  }
  const sel = (role: string): Record<string, string> => ({
    'app.kubernetes.io/name': 'node-feature-discovery',
    'app.kubernetes.io/instance': input.release,
    role
  })
  const img = `${nfd.image?.repository}:${nfd.image?.tag ?? 'v0.18.3'}`
  const gates = nfd.featureGates?.NodeFeatureAPI === false ? [] : ['-feature-gates=NodeFeatureAPI=true']
  const sa = nfd.master?.serviceAccount?.name ?? name
  const out: RenderedTemplate[] = []
  if (nfd.master?.serviceAccount?.create !== false)
    out.push({ source: src('serviceaccount.yaml'), obj: serviceAccount(sa, ns, labels) })
  out.push({
    source: src('nfd-master-conf.yaml'),
    obj: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${name}-master-conf`, namespace: ns, labels },
      data: { 'nfd-master.conf': stringify(nfd.master?.config ?? {}) }
    }
  })
  out.push({
    source: src('nfd-worker-conf.yaml'),
    obj: {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${name}-worker-conf`, namespace: ns, labels },
      data: { 'nfd-worker.conf': stringify(nfd.worker?.config ?? {}) }
    }
  })
  const container = (cname: string, flags: string[], extra: Values = {}): Values => ({
    name: cname,
    image: img,
    imagePullPolicy: nfd.image?.pullPolicy ?? 'IfNotPresent',
    env: [
      { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
      ...(flags.length ? [{ name: 'NFD_FLAGS', value: flags.join(' ') }] : [])
    ],
    ...extra
  })
  out.push({
    source: src('master.yaml'),
    obj: workload('Deployment', `${name}-master`, ns, { ...labels, role: 'master' }, sel('master'), {
      serviceAccountName: sa,
      ...scheduling({ ...nfd.master, priorityClassName: nfd.priorityClassName }),
      containers: [container('master', [...gates, '-extra-label-ns=nvidia.com'])]
    })
  })
  out.push({
    source: src('worker.yaml'),
    obj: workload('DaemonSet', `${name}-worker`, ns, { ...labels, role: 'worker' }, sel('worker'), {
      serviceAccountName: nfd.worker?.serviceAccount?.name ?? sa,
      ...scheduling({ ...nfd.worker, priorityClassName: nfd.priorityClassName }),
      containers: [
        container('worker', gates, {
          volumeMounts: [
            { name: 'nfd-worker-conf', mountPath: '/etc/kubernetes/node-feature-discovery', readOnly: true }
          ]
        })
      ],
      volumes: [{ name: 'nfd-worker-conf', configMap: { name: `${name}-worker-conf` } }]
    })
  })
  if (nfd.gc?.enable !== false) {
    out.push({
      source: src('nfd-gc.yaml'),
      obj: workload(
        'Deployment',
        `${name}-gc`,
        ns,
        { ...labels, role: 'gc' },
        sel('gc'),
        { serviceAccountName: nfd.gc?.serviceAccount?.name ?? sa, containers: [container('gc', [])] },
        Number(nfd.gc?.replicaCount ?? 1)
      )
    })
  }
  return out
}

function renderNetworkOperator(input: RenderInput): RenderResult {
  const v = input.values
  const op: Values = v.operator ?? {}
  const name = fullname(input.release, input.chart, op.nameOverride, op.fullnameOverride)
  const labels = commonLabels(input, input.chart)
  const selector = { 'app.kubernetes.io/name': input.chart, 'app.kubernetes.io/instance': input.release }
  const init = op.ofedDriver?.initContainer ?? {}
  const templates: RenderedTemplate[] = [
    {
      source: `${input.chart}/templates/serviceaccount.yaml`,
      obj: serviceAccount(name, input.namespace, labels)
    },
    {
      source: `${input.chart}/templates/operator.yaml`,
      obj: workload(
        'Deployment',
        name,
        input.namespace,
        labels,
        { ...selector, 'control-plane': `${input.release}-controller` },
        {
          serviceAccountName: name,
          ...scheduling(op),
          containers: [
            {
              name: input.chart,
              image: `${op.repository}/${op.image}:${op.tag ?? input.appVersion}`,
              imagePullPolicy: 'IfNotPresent',
              env: [
                { name: 'STATE_MANIFEST_BASE', value: '/manifests' },
                {
                  name: 'OFED_INIT_CONTAINER_IMAGE',
                  value: `${init.repository}/${init.image}:${init.version}`
                },
                { name: 'USE_DTK', value: String(op.useDTK ?? true) }
              ],
              ...(nonEmpty(op.resources) ? { resources: op.resources } : {})
            }
          ]
        }
      )
    }
  ]
  const crds = chartOwnCrds('network-operator', input.version)
  if (v.nfd?.enabled) {
    templates.push(...renderNfd(input, input.chart, v['node-feature-discovery'] ?? {}))
    crds.push(...nfdSubchartCrds('network-operator', input.version))
  }
  if (v.nfd?.deployNodeFeatureRules) {
    templates.push({
      source: `${input.chart}/templates/nodefeaturerules.yaml`,
      obj: {
        apiVersion: 'nfd.k8s-sigs.io/v1alpha1',
        kind: 'NodeFeatureRule',
        metadata: { name: 'nvidia-nics-rules' },
        spec: {
          rules: [
            {
              name: 'Nvidia NICs PCI',
              labels: { 'pci-15b3.present': 'true' },
              matchFeatures: [
                {
                  feature: 'pci.device',
                  matchExpressions: {
                    vendor: { op: 'In', value: ['15b3'] },
                    class: { op: 'In', value: ['0200', '0207'] }
                  }
                }
              ]
            }
          ]
        }
      }
    })
  }
  if (v.sriovNetworkOperator?.enabled) {
    const sriov: Values = v['sriov-network-operator'] ?? {}
    templates.push({
      source: `${input.chart}/charts/sriov-network-operator/templates/operator.yaml`,
      obj: workload(
        'Deployment',
        'sriov-network-operator',
        input.namespace,
        commonLabels(input, 'sriov-network-operator'),
        { name: 'sriov-network-operator' },
        {
          containers: [
            {
              name: 'sriov-network-operator',
              image:
                sriov.images?.operator ??
                `nvcr.io/nvidia/mellanox/sriov-network-operator:network-operator-${input.version}`
            }
          ]
        }
      )
    })
  }
  return { templates, crds }
}

/** ClusterPolicy components the chart's clusterpolicy.yaml copies from values. */
const POLICY_COMPONENTS = [
  'validator',
  'mig',
  'psa',
  'cdi',
  'driver',
  'vgpuManager',
  'kataManager',
  'vfioManager',
  'vgpuDeviceManager',
  'ccManager',
  'toolkit',
  'devicePlugin',
  'dcgm',
  'dcgmExporter',
  'gfd',
  'migManager',
  'nodeStatusExporter',
  'gds',
  'gdrcopy',
  'sandboxWorkloads',
  'sandboxDevicePlugin',
  'kataSandboxDevicePlugin'
]

/** The `cluster-policy` ClusterPolicy as gpu-operator's templates/clusterpolicy.yaml builds it from values. */
export function clusterPolicySpec(values: Values, appVersion: string): Values {
  const spec: Values = {}
  const op: Values = values.operator ?? {}
  spec.hostPaths = structuredClone(values.hostPaths ?? {})
  spec.operator = {
    ...(op.defaultRuntime ? { defaultRuntime: op.defaultRuntime } : {}),
    runtimeClass: op.runtimeClass ?? 'nvidia',
    use_ocp_driver_toolkit: op.use_ocp_driver_toolkit ?? false,
    ...(op.initContainer ? { initContainer: structuredClone(op.initContainer) } : {})
  }
  const ds: Values = values.daemonsets ?? {}
  spec.daemonsets = {
    labels: ds.labels ?? {},
    annotations: ds.annotations ?? {},
    tolerations: ds.tolerations ?? [],
    priorityClassName: ds.priorityClassName,
    updateStrategy: ds.updateStrategy,
    rollingUpdate: { maxUnavailable: String(ds.rollingUpdate?.maxUnavailable ?? '1') }
  }
  for (const key of POLICY_COMPONENTS) {
    if (!isMap(values[key])) continue
    const c: Values = structuredClone(values[key])
    if (key === 'driver' && isMap(c.nvidiaDriverCRD)) {
      c.useNvidiaDriverCRD = Boolean(c.nvidiaDriverCRD.enabled)
      delete c.nvidiaDriverCRD
    }
    if ((key === 'validator' || key === 'nodeStatusExporter') && !c.version) c.version = appVersion
    spec[key] = c
  }
  return spec
}

function renderGpuOperator(input: RenderInput): RenderResult {
  const v = input.values
  const op: Values = v.operator ?? {}
  const labels = { ...commonLabels(input, input.chart), 'app.kubernetes.io/component': 'gpu-operator' }
  const selector = { 'app.kubernetes.io/component': 'gpu-operator', app: 'gpu-operator' }
  const mgr: Values = v.driver?.manager ?? {}
  const templates: RenderedTemplate[] = [
    {
      source: `${input.chart}/templates/serviceaccount.yaml`,
      obj: serviceAccount('gpu-operator', input.namespace, labels)
    },
    {
      source: `${input.chart}/templates/operator.yaml`,
      obj: workload('Deployment', 'gpu-operator', input.namespace, labels, selector, {
        serviceAccountName: 'gpu-operator',
        ...scheduling(op),
        containers: [
          {
            name: 'gpu-operator',
            image: `${op.repository}/${op.image}:${op.version ?? input.appVersion}`,
            imagePullPolicy: op.imagePullPolicy ?? 'IfNotPresent',
            env: [
              { name: 'WATCH_NAMESPACE', value: '' },
              { name: 'OPERATOR_LOG_LEVEL', value: String(op.logging?.level ?? 'info') },
              { name: 'OPERATOR_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
              { name: 'DRIVER_MANAGER_IMAGE', value: `${mgr.repository}/${mgr.image}:${mgr.version}` }
            ],
            ...(nonEmpty(op.resources) ? { resources: op.resources } : {})
          }
        ]
      })
    },
    {
      source: `${input.chart}/templates/clusterpolicy.yaml`,
      obj: {
        apiVersion: 'nvidia.com/v1',
        kind: 'ClusterPolicy',
        metadata: { name: 'cluster-policy', labels },
        spec: clusterPolicySpec(v, input.appVersion)
      }
    }
  ]
  const crds = chartOwnCrds('gpu-operator', input.version)
  if (v.nfd?.enabled) {
    templates.push(...renderNfd(input, input.chart, v['node-feature-discovery'] ?? {}))
    crds.push(...nfdSubchartCrds('gpu-operator', input.version))
  }
  return { templates, crds }
}

/** helm's InstallOrder for the kinds rendered here; unknown kinds (custom resources) go last. */
const INSTALL_ORDER = [
  'Namespace',
  'ServiceAccount',
  'Secret',
  'ConfigMap',
  'CustomResourceDefinition',
  'DaemonSet',
  'Deployment'
]

export function sortForInstall<T extends { obj: KubeObj } | KubeObj>(items: T[]): T[] {
  const rank = (x: T): number => {
    const kind = 'obj' in x ? (x.obj as KubeObj).kind : (x as KubeObj).kind
    const i = INSTALL_ORDER.indexOf(kind)
    return i < 0 ? INSTALL_ORDER.length : i
  }
  return items
    .map((x, i) => ({ x, i }))
    .sort((a, b) => rank(a.x) - rank(b.x) || a.i - b.i)
    .map(e => e.x)
}

export function renderChart(input: RenderInput): RenderResult {
  const r = input.chart === 'gpu-operator' ? renderGpuOperator(input) : renderNetworkOperator(input)
  return { templates: sortForInstall(r.templates), crds: r.crds }
}

/** The release manifest text, as helm stores it (`---\n# Source: …\n<yaml>`). */
export function manifestText(templates: RenderedTemplate[]): string {
  return templates.map(t => `---\n# Source: ${t.source}\n${stringify(t.obj).trimEnd()}\n`).join('')
}

/** The objects of a stored manifest. */
export function parseManifest(manifest: string): KubeObj[] {
  return parseAllDocuments(manifest)
    .map(d => (Array.isArray(d) ? undefined : d.toJS()))
    .filter((o): o is KubeObj => isMap(o) && typeof o.kind === 'string')
}
