// The component registry and its contract: every name of the stack order has exactly one whole
// component (the compiler rejects a missing part or a missing component), per-node dependencies
// point back in the order, what the health rules watch comes from the rendered manifests, and
// the plan's readiness prose is the rules' own text.
import {
  buildStack,
  COMPONENT_ORDER,
  COMPONENTS,
  isKubeComponent,
  kubeComponents,
  type Component,
  type ComponentName,
  type KubeComponent
} from '../../../src/components/index.js'
import { healthSources } from '../../../src/health/evaluate.js'
import { selectorOf } from '../../../src/kube/types.js'
import { LABELS } from '../../../src/model/types.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

// Built inside each test (never while the file loads): the mutation run switches mutants on per test.
const settings = () => readSettings(reader({ ...VALID_APPLY }), {}).settings

describe('registry', () => {
  it('the golden order: the stack in the order the guide requires (the one list a test writes out)', () => {
    expect([...COMPONENT_ORDER]).toEqual([
      'infiniband-feature',
      'cluster',
      'node-pool',
      'credentials',
      'network-operator',
      'node-feature-rule',
      'nic-cluster-policy',
      'ib-node-config',
      'rdma-device-plugin',
      'gpu-operator'
    ])
  })

  it('holds every component of the stack order, under its own name, in that order', () => {
    expect(Object.keys(COMPONENTS)).toEqual([...COMPONENT_ORDER])
    for (const [name, c] of Object.entries(COMPONENTS)) expect(c.name).toBe(name)
    expect(buildStack(settings()).map(c => c.name)).toEqual([...COMPONENT_ORDER])
  })

  it('is checked by the compiler: a component lacking a part, or a registry lacking one, does not compile', () => {
    const { hints: _hints, ...withoutHints } = COMPONENTS['ib-node-config']
    // @ts-expect-error — `hints` is required (a component says "none" with noHints)
    const incomplete: KubeComponent = withoutHints
    const { 'gpu-operator': _gpu, ...nine } = COMPONENTS
    // @ts-expect-error — the registry must hold every ComponentName
    const partial = nine satisfies Record<ComponentName, Component>
    expect([incomplete.name, Object.keys(partial).length]).toEqual(['ib-node-config', 9])
  })

  it('orders per-node dependencies: each is a pool-node component earlier in the stack', () => {
    for (const c of kubeComponents()) {
      if (c.placement.on !== 'pool-nodes') continue
      for (const dep of c.placement.after) {
        const d = COMPONENTS[dep]
        expect({ c: c.name, dep, onPool: isKubeComponent(d) && d.placement.on === 'pool-nodes' }).toEqual({
          c: c.name,
          dep,
          onPool: true
        })
        expect(COMPONENT_ORDER.indexOf(dep)).toBeLessThan(COMPONENT_ORDER.indexOf(c.name))
      }
    }
  })
})

describe('health sources come from the rendered manifests', () => {
  for (const name of ['ib-node-config', 'rdma-device-plugin'] as const) {
    it(`${name}: watches its DaemonSet's pods and the DaemonSet itself`, () => {
      const c = COMPONENTS[name]
      const ds = c.desired(settings()).manifests!.find(m => m.kind === 'DaemonSet')!
      const spec = ds.spec as any
      const sources = healthSources(c.health(settings()), settings())
      expect(sources.pods).toMatchObject({
        kind: 'Pod',
        namespace: ds.metadata.namespace,
        labelSelector: selectorOf(spec.selector.matchLabels)
      })
      // The selector selects the template's pods.
      for (const [k, v] of Object.entries(spec.selector.matchLabels))
        expect(spec.template.metadata.labels[k]).toBe(v)
      // The action's own DaemonSets there (the rules pick theirs by name): this one is among them.
      expect(sources.daemonsets).toMatchObject({
        kind: 'DaemonSet',
        namespace: ds.metadata.namespace,
        labelSelector: `${LABELS.managed}=true`
      })
      expect(ds.metadata.labels![LABELS.managed]).toBe('true')
    })
  }

  it('the policies and namespaces watched are the ones the components render', () => {
    const ncp = COMPONENTS['nic-cluster-policy'].desired(settings()).manifests![0]
    expect(COMPONENTS['nic-cluster-policy'].health(settings()).sources.policies).toMatchObject({
      apiVersion: ncp.apiVersion,
      kind: ncp.kind
    })
    const gpu = COMPONENTS['gpu-operator'].desired(settings()).helm!
    expect(COMPONENTS['gpu-operator'].health(settings()).sources.pods.namespace).toBe(gpu.namespace)
    const netop = COMPONENTS['network-operator'].desired(settings()).helm!
    expect(COMPONENTS['network-operator'].health(settings()).sources.deployments.namespace).toBe(
      netop.namespace
    )
  })

  it('every pool-node component also watches the pool nodes; a cluster-level one does not', () => {
    for (const c of kubeComponents()) {
      const nodes = healthSources(c.health(settings()), settings()).nodes
      if (c.placement.on === 'pool-nodes')
        expect(nodes).toMatchObject({
          kind: 'Node',
          labelSelector: 'kubernetes.azure.com/agentpool=rdmapool'
        })
      else expect(nodes).toBeUndefined()
    }
  })
})

describe('the plan prints the rules', () => {
  it("each cluster component's readiness conditions are its health rules' text", () => {
    const stack = buildStack(settings())
    for (const c of kubeComponents()) {
      const h = c.health(settings())
      const spec = stack.find(x => x.name === c.name)!
      expect(spec.readiness.summary).toBe(h.summary)
      for (const r of [...(h.perNode?.rules ?? []), ...h.cluster])
        expect(spec.readiness.conditions.some(line => line.endsWith(r.text))).toBe(true)
    }
  })
})
