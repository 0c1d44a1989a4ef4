// Node Feature Discovery as the charts deploy it: a node is labelled only while an NFD worker pod
// (label role=worker of app.kubernetes.io/name=node-feature-discovery, any namespace) is Ready on
// it — so a taint its worker does not tolerate, or a worker nodeSelector that leaves the node out,
// leaves the node unlabelled, as on a real cluster. On such a node it applies the default
// sources' labels (OS release, kernel version, pci-<vendor>.present for the device classes the
// worker's nfd-worker.conf whitelists) and every NodeFeatureRule's labels (pci.device
// vendor/device/class, kernel, OS), removing rule labels again when the rule goes away. Without a
// rule, nothing sets pci-15b3.present (the chart's whitelist is display classes only).
import { parse } from 'yaml'
import type { NodeHardware } from '../hardware.js'
import type { KubeObject } from '../store.js'
import { isPodReady, setNodeLabels, TK, type SimContext } from './context.js'
import type { Reconciler } from './queue.js'

export const NFD_LABELS_ANNOTATION = 'nfd.node.kubernetes.io/feature-labels'
export const NETWORK_OPERATOR_NS = 'network-operator'
const LABEL_NS = 'feature.node.kubernetes.io/'

interface MatchExpression {
  op: string
  value?: Array<string | number> | string
}

type Features = {
  instances: Record<string, Array<Record<string, string>>>
  attributes: Record<string, Record<string, string>>
  flags: Record<string, Set<string>>
}

function featuresOf(hw: NodeHardware): Features {
  const [maj, min, rest] = hw.kernel.split('.')
  return {
    instances: {
      'pci.device': hw.pci.map(d => ({
        vendor: d.vendor,
        device: d.device,
        class: d.class,
        subsystem_vendor: d.subsystem_vendor,
        subsystem_device: d.subsystem_device
      }))
    },
    attributes: {
      'kernel.version': { full: hw.kernel, major: maj, minor: min, revision: rest.split('-')[0] },
      'system.osrelease': {
        ID: hw.osId,
        VERSION_ID: hw.osVersion,
        'VERSION_ID.major': hw.osVersion.split('.')[0],
        'VERSION_ID.minor': hw.osVersion.split('.')[1]
      }
    },
    flags: {
      'kernel.loadedmodule': new Set([
        'mlx5_core',
        'mlx5_ib',
        'ib_core',
        ...(hw.ofedReady ? ['mlx_compat'] : [])
      ])
    }
  }
}

function evalExpr(e: MatchExpression, value: string | undefined): boolean {
  const vals = (Array.isArray(e.value) ? e.value : e.value === undefined ? [] : [e.value]).map(String)
  switch (e.op) {
    case 'In':
      return value !== undefined && vals.includes(value)
    case 'NotIn':
      return value === undefined || !vals.includes(value)
    case 'InRegexp':
      return value !== undefined && vals.some(v => new RegExp(v).test(value))
    case 'Exists':
      return value !== undefined
    case 'DoesNotExist':
      return value === undefined
    case 'Gt':
      return value !== undefined && Number(value) > Number(vals[0])
    case 'Lt':
      return value !== undefined && Number(value) < Number(vals[0])
    case 'IsTrue':
      return value === 'true'
    case 'IsFalse':
      return value === 'false'
    default:
      return false
  }
}

function matchFeature(
  f: { feature: string; matchExpressions?: Record<string, MatchExpression>; matchName?: MatchExpression },
  feats: Features
): boolean {
  const exprs = Object.entries(f.matchExpressions ?? {})
  if (feats.instances[f.feature])
    return feats.instances[f.feature].some(inst => exprs.every(([k, e]) => evalExpr(e, inst[k])))
  if (feats.attributes[f.feature]) return exprs.every(([k, e]) => evalExpr(e, feats.attributes[f.feature][k]))
  if (feats.flags[f.feature]) {
    const set = feats.flags[f.feature]
    return exprs.every(([k, e]) => evalExpr(e, set.has(k) ? 'true' : undefined))
  }
  return false
}

function ruleMatches(rule: any, feats: Features): boolean {
  const all: any[] = rule.matchFeatures ?? []
  const any: any[] = rule.matchAny ?? []
  const okAll = all.every(f => matchFeature(f, feats))
  const okAny =
    any.length === 0 || any.some(a => (a.matchFeatures ?? []).every((f: any) => matchFeature(f, feats)))
  return (all.length > 0 || any.length > 0) && okAll && okAny
}

function qualify(key: string): string {
  return key.includes('/') ? key : LABEL_NS + key
}

/** An NFD worker pod (the subchart's worker DaemonSet). */
export function isNfdWorker(p: KubeObject): boolean {
  return (
    p.metadata.labels?.role === 'worker' &&
    p.metadata.labels?.['app.kubernetes.io/name'] === 'node-feature-discovery'
  )
}

interface PciSource {
  deviceClassWhitelist: string[]
  deviceLabelFields: string[]
}
/** NFD's own defaults when the worker has no configuration. */
const PCI_DEFAULTS: PciSource = {
  deviceClassWhitelist: ['03', '0b40', '12'],
  deviceLabelFields: ['class', 'vendor']
}

/** The pci source settings of the worker's nfd-worker.conf (the ConfigMap its pod mounts). */
function pciSource(ctx: SimContext, worker: KubeObject): PciSource {
  const vol = (worker.spec?.volumes ?? []).find((v: any) => v.configMap?.name)
  const cm = vol ? ctx.cache.get(TK.configmaps, worker.metadata.namespace, vol.configMap.name) : undefined
  const text = cm?.data?.['nfd-worker.conf']
  if (typeof text !== 'string') return PCI_DEFAULTS
  try {
    const pci = parse(text)?.sources?.pci ?? {}
    return {
      deviceClassWhitelist: (pci.deviceClassWhitelist ?? PCI_DEFAULTS.deviceClassWhitelist).map(String),
      deviceLabelFields: (pci.deviceLabelFields ?? PCI_DEFAULTS.deviceLabelFields).map(String)
    }
  } catch {
    return PCI_DEFAULTS
  }
}

/** The default sources' labels: OS release, kernel version, and pci-<fields>.present for whitelisted classes. */
export function sourceLabels(hw: NodeHardware, pci: PciSource = PCI_DEFAULTS): Record<string, string> {
  const [maj, min, rest] = hw.kernel.split('.')
  const out: Record<string, string> = {
    [LABEL_NS + 'system-os_release.ID']: hw.osId,
    [LABEL_NS + 'system-os_release.VERSION_ID']: hw.osVersion,
    [LABEL_NS + 'system-os_release.VERSION_ID.major']: hw.osVersion.split('.')[0],
    [LABEL_NS + 'system-os_release.VERSION_ID.minor']: hw.osVersion.split('.')[1],
    [LABEL_NS + 'kernel-version.full']: hw.kernel,
    [LABEL_NS + 'kernel-version.major']: maj,
    [LABEL_NS + 'kernel-version.minor']: min,
    [LABEL_NS + 'kernel-version.revision']: rest.split('-')[0]
  }
  for (const d of hw.pci) {
    if (!pci.deviceClassWhitelist.some(c => d.class.startsWith(c))) continue
    const parts = pci.deviceLabelFields.map(f =>
      f === 'class' ? d.class : f === 'vendor' ? d.vendor : f === 'device' ? d.device : ''
    )
    out[`${LABEL_NS}pci-${parts.filter(Boolean).join('_')}.present`] = 'true'
  }
  return out
}

/** The labels every NodeFeatureRule yields for a node. */
export function labelsFromRules(rules: KubeObject[], hw: NodeHardware): Record<string, string> {
  const feats = featuresOf(hw)
  const out: Record<string, string> = {}
  for (const r of rules) {
    for (const rule of r.spec?.rules ?? []) {
      if (!ruleMatches(rule, feats)) continue
      for (const [k, v] of Object.entries(rule.labels ?? {})) out[qualify(k)] = String(v)
    }
  }
  return out
}

export class NfdController implements Reconciler {
  readonly name = 'nfd'
  constructor(private readonly ctx: SimContext) {
    ctx.cache.onEvent((e, tk) => {
      if (tk === TK.nodeFeatureRules) ctx.queue.add(this, '*')
      else if (tk === TK.pods && isNfdWorker(e.object) && e.object.spec?.nodeName)
        ctx.queue.add(this, e.object.spec.nodeName)
      else if (tk === TK.configmaps && e.object.data?.['nfd-worker.conf'] !== undefined)
        ctx.queue.add(this, '*')
    })
    ctx.queue.add(this, '*')
  }

  /** The Ready NFD worker pod on a node, if any. */
  private workerOn(node: string): KubeObject | undefined {
    return this.ctx.cache.podsOnNode(node).find(p => isNfdWorker(p) && isPodReady(p))
  }

  reconcile(key: string): void {
    const rules = this.ctx.cache.list(TK.nodeFeatureRules)
    const nodes =
      key === '*'
        ? this.ctx.cache.list(TK.nodes)
        : [this.ctx.cache.get(TK.nodes, undefined, key)].filter((n): n is KubeObject => !!n)
    for (const node of nodes) {
      const hw = this.ctx.hardware.get(node.metadata.name)
      if (!hw) continue
      // Nothing labels a node without a running worker (labels it gave before stay, as with NFD).
      const worker = this.workerOn(node.metadata.name)
      if (!worker) continue
      const want = { ...sourceLabels(hw, pciSource(this.ctx, worker)), ...labelsFromRules(rules, hw) }
      const managed = (node.metadata.annotations?.[NFD_LABELS_ANNOTATION] ?? '')
        .split(',')
        .filter(Boolean)
        .map(qualify)
      const change: Record<string, string | undefined> = {}
      for (const k of managed) if (!(k in want)) change[k] = undefined
      for (const [k, v] of Object.entries(want)) change[k] = v
      const names = Object.keys(want)
        .map(k => (k.startsWith(LABEL_NS) ? k.slice(LABEL_NS.length) : k))
        .sort()
        .join(',')
      setNodeLabels(this.ctx, node.metadata.name, change)
      if ((node.metadata.annotations?.[NFD_LABELS_ANNOTATION] ?? '') !== names) {
        this.ctx.store.mutate(this.ctx.store.type('', 'nodes')!, undefined, node.metadata.name, o => {
          o.metadata.annotations = o.metadata.annotations ?? {}
          if (names) o.metadata.annotations[NFD_LABELS_ANNOTATION] = names
          else delete o.metadata.annotations[NFD_LABELS_ANNOTATION]
        })
      }
    }
  }
}
