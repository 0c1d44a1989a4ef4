// The components' readiness selectors against pods shaped like the real operators': the Network
// Operator's OFED driver pods get the labels of its DaemonSet template (v26.4.1, rendered for an
// Ubuntu 22.04 node), the GPU Operator's driver pods those of its driver DaemonSet asset (v26.7.0),
// the action's own DaemonSets' pods their templates' labels. Each health source picks its objects
// by namespace and label selector as the API server does, and every component's health rules must
// then find every RDMA node ready — so a selector that matches no real pod (the guide's
// app=mofed-ubuntu22.04-ds) fails here at once, with the selector it actually used in the message.
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import {
  COMPONENT_ORDER,
  COMPONENTS,
  kubeComponents,
  type KubeComponent
} from '../../../src/components/index.js'
import { evaluateHealth, healthSources } from '../../../src/health/evaluate.js'
import type { SourceSpec } from '../../../src/health/types.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { kernelHash } from '../../../sim/kube/controllers/network-operator.js'
import { matchesLabels, parseLabelSelector } from '../../../sim/kube/selectors.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { rdmaNode } from '../../support/nodes.js'
import { availableOperatorDeployment, nicClusterPolicy } from '../../support/operator-objects.js'

const UPSTREAM = path.resolve(process.cwd(), 'test/fixtures/upstream')
const KERNEL = '5.15.0-1079-azure'
const NODES = ['aks-rdmapool-12345678-vmss000000', 'aks-rdmapool-12345678-vmss000001']
// Built inside each test (never while the file loads): the mutation run switches mutants on per test.
const settings = () =>
  readSettings(
    reader({ ...VALID_APPLY, 'node-pool': 'rdmapool', 'vm-size': 'Standard_ND96asr_v4', 'node-count': '2' })
  ).settings

/**
 * The pod template labels of the Network Operator's OFED driver DaemonSet (a Go template, so read
 * as text), rendered as the operator renders them for an Ubuntu 22.04 node with this kernel.
 */
function ofedPodLabels(): Record<string, string> {
  const text = readFileSync(
    path.join(UPSTREAM, 'network-operator-v26.4.1-manifest-ofed-driver-ds.yaml'),
    'utf8'
  )
  const block = /\n {2}template:\n {4}metadata:\n {6}labels:\n((?: {8}.+\n)+)/.exec(text)
  if (!block) throw new Error('no pod template labels in the OFED driver DaemonSet manifest')
  const render = (v: string) =>
    v
      .replace(/\{\{ \.RuntimeSpec\.OSName \}\}/g, 'ubuntu')
      .replace(/\{\{ \.RuntimeSpec\.OSVer \}\}/g, '22.04')
      .replace(/\{\{ \.RuntimeSpec\.KernelHash \}\}/g, kernelHash(KERNEL))
      .replace(/\{\{ \.RuntimeSpec\.Kernel \}\}/g, KERNEL)
      // The suffix is empty for the NicClusterPolicy's own driver DaemonSets; the owner is its kind.
      .replace(/\{\{ \.NameSuffix \}\}/g, '')
      .replace(/\{\{ \.DSOwner \}\}/g, 'NicClusterPolicy')
  const labels: Record<string, string> = {}
  for (const line of block[1].trimEnd().split('\n')) {
    const m = /^\s+([^:]+):\s*(.*)$/.exec(line)!
    labels[m[1]] = String(parse(render(m[2])) ?? '')
  }
  return labels
}

/** The GPU Operator's driver DaemonSet asset (plain YAML): its pod template labels. */
function gpuDriverPodLabels(): Record<string, string> {
  const ds = parse(
    readFileSync(path.join(UPSTREAM, 'gpu-operator-v26.7.0-asset-driver-daemonset.yaml'), 'utf8')
  )
  return ds.spec.template.metadata.labels
}

function readyPod(
  name: string,
  namespace: string,
  node: string,
  labels: Record<string, string>,
  containers: string[],
  init: string[] = []
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels },
    spec: {
      nodeName: node,
      containers: containers.map(c => ({ name: c })),
      initContainers: init.map(c => ({ name: c }))
    },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: containers.map(c => ({
        name: c,
        ready: true,
        restartCount: 0,
        state: { running: {} }
      })),
      initContainerStatuses: init.map(c => ({
        name: c,
        ready: false,
        restartCount: 0,
        state: { terminated: { exitCode: 0, reason: 'Completed' } }
      }))
    }
  }
}

/** The action's own DaemonSet of a component, rolled out on both nodes. */
function ownDaemonSet(c: KubeComponent): KubeObject {
  const ds = structuredClone(
    c.desired(settings()).manifests!.find(m => m.kind === 'DaemonSet')!
  ) as KubeObject
  ds.metadata.generation = 1
  ds.status = {
    observedGeneration: 1,
    desiredNumberScheduled: 2,
    currentNumberScheduled: 2,
    numberReady: 2,
    updatedNumberScheduled: 2,
    numberAvailable: 2,
    numberUnavailable: 0
  }
  return ds
}

/** A running cluster as the operators and the action's manifests leave it. */
function cluster(): KubeObject[] {
  const ibNodeConfig = ownDaemonSet(COMPONENTS['ib-node-config'] as KubeComponent)
  const devicePlugin = ownDaemonSet(COMPONENTS['rdma-device-plugin'] as KubeComponent)
  const podOf = (ds: KubeObject, node: string, i: number) =>
    readyPod(
      `${ds.metadata.name}-${i}`,
      ds.metadata.namespace!,
      node,
      ds.spec.template.metadata.labels,
      ds.spec.template.spec.containers.map((c: { name: string }) => c.name),
      (ds.spec.template.spec.initContainers ?? []).map((c: { name: string }) => c.name)
    )
  const nodes: KubeObject[] = NODES.map(name =>
    rdmaNode(name, {
      labels: { 'nvidia.com/gpu.deploy.driver': 'true' },
      alloc: { 'rdma/hca_shared_devices_a': '1k', 'nvidia.com/gpu': '8' }
    })
  )
  return [
    ...nodes,
    ...NODES.flatMap((node, i) => [
      readyPod(`mofed-ubuntu22.04-${kernelHash(KERNEL)}-ds-${i}`, 'network-operator', node, ofedPodLabels(), [
        'mofed-container'
      ]),
      readyPod(`nvidia-driver-daemonset-${i}`, 'gpu-operator', node, gpuDriverPodLabels(), [
        'nvidia-driver-ctr',
        'nvidia-peermem-ctr'
      ]),
      podOf(ibNodeConfig, node, i),
      podOf(devicePlugin, node, i)
    ]),
    ibNodeConfig,
    devicePlugin,
    availableOperatorDeployment(),
    nicClusterPolicy({ state: 'ready', appliedStates: [{ name: 'state-OFED', state: 'ready' }] }),
    {
      apiVersion: 'nvidia.com/v1',
      kind: 'ClusterPolicy',
      metadata: { name: 'cluster-policy' },
      status: { state: 'ready' }
    }
  ]
}

/** What a list (or watch) of the source returns: its kind, in its namespace, matching its label selector. */
function observe(objects: KubeObject[], src: SourceSpec): KubeObject[] {
  const reqs = parseLabelSelector(src.labelSelector)
  return objects.filter(
    o =>
      o.kind === src.kind &&
      o.apiVersion === src.apiVersion &&
      (src.namespace === undefined || o.metadata.namespace === src.namespace) &&
      matchesLabels(reqs, o.metadata.labels)
  )
}

function evaluate(c: KubeComponent, objects: KubeObject[]) {
  const h = c.health(settings())
  const snapshot = Object.fromEntries(
    Object.entries(healthSources(h, settings())).map(([k, src]) => [k, observe(objects, src)])
  )
  return evaluateHealth(h, snapshot, { settings: settings(), elapsedMs: 0, nfdGraceMs: 60_000 })
}

describe('readiness selectors against pods shaped like the real operators’', () => {
  it('the OFED driver pods carry nvidia.com/ofed-driver and app=mofed-<os><ver>-<kernelHash>, never the guide’s label', () => {
    const labels = ofedPodLabels()
    expect(labels).toEqual({
      app: `mofed-ubuntu22.04-${kernelHash(KERNEL)}`,
      kernel: KERNEL,
      'nvidia.com/ofed-driver': '',
      'ds-owner': 'NicClusterPolicy'
    })
    expect(matchesLabels(parseLabelSelector('app=mofed-ubuntu22.04-ds'), labels)).toBe(false)
    expect(gpuDriverPodLabels()).toMatchObject({ app: 'nvidia-driver-daemonset' })
  })

  it('every cluster component finds every RDMA node ready through its own selectors', () => {
    const objects = cluster()
    const verdicts = kubeComponents()
      .filter(c => c.skip(settings()) === undefined)
      .map(c => {
        const v = evaluate(c, objects)
        return { component: c.name, done: v.done, fail: v.fail, notReady: v.nodes.filter(n => !n.ready) }
      })
    for (const v of verdicts)
      expect(v).toEqual({ component: v.component, done: true, fail: undefined, notReady: [] })
    // the stack order from the Network Operator on: every component that runs in the cluster
    expect(verdicts.map(v => v.component)).toEqual(
      COMPONENT_ORDER.slice(COMPONENT_ORDER.indexOf('network-operator'))
    )
  })

  it('each pod source selects the operator’s pods on every node, and its rules quote that very selector', () => {
    const objects = cluster()
    for (const c of kubeComponents()) {
      const h = c.health(settings())
      for (const [key, src] of Object.entries(h.sources)) {
        if (src.kind !== 'Pod') continue
        const picked = observe(objects, src)
        expect({
          component: c.name,
          source: key,
          nodes: [...new Set(picked.map(p => p.spec.nodeName))]
        }).toEqual({
          component: c.name,
          source: key,
          nodes: NODES
        })
        // What the plan prints and what a node with no pod is told name the selector in use.
        const rule = h.perNode!.rules[0]
        expect(rule.text).toContain(`-n ${src.namespace} -l ${src.labelSelector}`)
        const none = evaluate(
          c,
          objects.filter(o => !picked.includes(o))
        ).nodes[0]
        expect(none.ready).toBe(false)
        expect(none.detail).toContain(`-n ${src.namespace} -l ${src.labelSelector}`)
      }
    }
  })
})
