// Node Feature Discovery as the Network Operator chart deploys it: active once the operator's
// Deployment exists in `network-operator`; evaluates every NodeFeatureRule against each node's
// hardware (pci.device vendor/device/class, kernel, OS) and applies the rule's labels, removing
// them again when the rule goes away. Without a rule, nothing sets pci-15b3.present.
import type { NodeHardware } from '../hardware.js'
import type { KubeObject } from '../store.js'
import { setNodeLabels, TK, type SimContext } from './context.js'
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
      else if (tk === TK.deployments && e.object.metadata.namespace === NETWORK_OPERATOR_NS)
        ctx.queue.add(this, '*')
      else if (tk === TK.nodes && e.type === 'ADDED') ctx.queue.add(this, e.object.metadata.name)
    })
    ctx.queue.add(this, '*')
  }

  /** NFD runs once the Network Operator (its chart's Deployment) is installed. */
  active(): boolean {
    return this.ctx.cache.list(TK.deployments, NETWORK_OPERATOR_NS).length > 0
  }

  reconcile(key: string): void {
    if (!this.active()) return
    const rules = this.ctx.cache.list(TK.nodeFeatureRules)
    const nodes =
      key === '*'
        ? this.ctx.cache.list(TK.nodes)
        : [this.ctx.cache.get(TK.nodes, undefined, key)].filter((n): n is KubeObject => !!n)
    for (const node of nodes) {
      const hw = this.ctx.hardware.get(node.metadata.name)
      if (!hw) continue
      const want = labelsFromRules(rules, hw)
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
