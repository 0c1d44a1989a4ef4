// The shared health machinery on hand-made health definitions: which nodes are the pool's (in
// natural order, none being deleted), what a per-node rule's first miss says, the notes a ready
// node keeps and the values verification prints, how cluster rules combine (messages, problems,
// the earliest re-check, a give-up reason over everything), and the shared rules — a workload's
// pods, the action's own objects, a DaemonSet rolled out, a policy's state, an allocatable amount.
import { describe, expect, it } from '@jest/globals'
import {
  evaluateHealth,
  healthSources,
  poolNodes,
  poolNodeSource,
  readinessOf
} from '../../../src/health/evaluate.js'
import {
  allocatableOn,
  daemonSetRolledOut,
  managedLike,
  named,
  noPod,
  podsOf,
  rolledOut,
  stateReady
} from '../../../src/health/rules.js'
import { met, missing, type ClusterRule, type Health } from '../../../src/health/types.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

// Built inside each test (never at load): the mutation run switches mutants on per test.
const settings = () => readSettings(reader({ ...VALID_APPLY, 'node-pool': 'rdmapool' })).settings
const ctx = () => ({ settings: settings(), elapsedMs: 0, nfdGraceMs: 0 })

const node = (name: string, pool = 'rdmapool', extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.azure.com/agentpool': pool }, ...extra },
  status: { allocatable: {} }
})
const pod = (name: string, nodeName?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns' },
  spec: nodeName ? { nodeName, containers: [{ name: 'c' }] } : { containers: [{ name: 'c' }] },
  status: { phase: 'Running' }
})

describe('the pool’s nodes', () => {
  it('only the pool’s, none being deleted, in natural order (vmss9 before vmss10), sorted only when needed', () => {
    const nodes = [
      node('aks-rdmapool-vmss10'),
      node('aks-system-vmss0', 'system'),
      node('aks-rdmapool-vmss9'),
      node('aks-rdmapool-vmss2', 'rdmapool', { deletionTimestamp: '2026-01-01T00:00:00Z' }),
      { ...node('unlabelled'), metadata: { name: 'unlabelled' } }
    ]
    expect(poolNodes(nodes, 'rdmapool').map(n => n.metadata.name)).toEqual([
      'aks-rdmapool-vmss9',
      'aks-rdmapool-vmss10'
    ])
    const inOrder = [node('a1'), node('a2'), node('a10')]
    expect(poolNodes(inOrder, 'rdmapool').map(n => n.metadata.name)).toEqual(['a1', 'a2', 'a10'])
    expect(poolNodes([node('b'), node('a'), node('a')], 'rdmapool').map(n => n.metadata.name)).toEqual([
      'a',
      'a',
      'b'
    ])
  })

  it('the pool’s node source, and a health’s sources with it when it is per node', () => {
    expect(poolNodeSource(settings())).toEqual({
      name: 'nodes',
      apiVersion: 'v1',
      kind: 'Node',
      labelSelector: 'kubernetes.azure.com/agentpool=rdmapool'
    })
    const pods = { name: 'p', apiVersion: 'v1', kind: 'Pod' }
    const perNode: Health = {
      summary: 's',
      sources: { pods },
      perNode: { progress: 'x', rules: [] },
      cluster: [],
      warnings: []
    }
    expect(healthSources(perNode, settings())).toEqual({ nodes: poolNodeSource(settings()), pods })
    expect(healthSources({ ...perNode, perNode: undefined }, settings())).toEqual({ pods })
  })
})

describe('evaluateHealth', () => {
  const noted = (note: string, summarize = false) => ({
    text: `t-${note}`,
    summarize,
    check: () => met(note)
  })
  const cluster = (
    ok: boolean,
    message: string,
    extra: Partial<ReturnType<ClusterRule['check']>> = {}
  ): ClusterRule => ({
    text: `c-${message}`,
    check: () => ({ ok, message, ...extra })
  })

  it('per node: the first rule a node misses, the notes of a ready one, the summarised values once', () => {
    const h: Health = {
      summary: 's',
      sources: {},
      perNode: {
        progress: 'things ready',
        rules: [
          noted('plain'),
          { text: 'has pod', check: (_n, pods) => (pods.length ? met() : missing('no pod')) },
          noted('value 8', true),
          { text: 'never reached when a rule before misses', check: () => missing('second miss') }
        ]
      },
      cluster: [],
      warnings: []
    }
    const v = evaluateHealth(
      h,
      { nodes: [node('n1'), node('n2'), node('n3')], pods: [pod('p1', 'n1'), pod('p3', 'n3'), pod('stray')] },
      ctx()
    )
    expect(v.nodes).toEqual([
      { node: 'n1', ready: false, detail: 'second miss' },
      { node: 'n2', ready: false, detail: 'no pod' },
      { node: 'n3', ready: false, detail: 'second miss' }
    ])
    expect(v.message).toBe('things ready on 0/3 nodes')
    const h2 = { ...h, perNode: { ...h.perNode!, rules: h.perNode!.rules.slice(0, 3) } }
    const ok = evaluateHealth(
      h2,
      { nodes: [node('n1'), node('n3')], pods: [pod('p1', 'n1'), pod('p3', 'n3')] },
      ctx()
    )
    expect(ok).toEqual({
      done: true,
      message: 'things ready on 2/2 nodes',
      readyNodes: 2,
      totalNodes: 2,
      nodes: [
        { node: 'n1', ready: true, notes: ['plain', 'value 8'] },
        { node: 'n3', ready: true, notes: ['plain', 'value 8'] }
      ],
      problems: [],
      values: ['value 8']
    })
    const quiet = evaluateHealth(
      { ...h, perNode: { progress: 'p', rules: [{ text: 'x', check: () => met() }] } },
      { nodes: [node('n1')] },
      ctx()
    )
    expect(quiet.nodes).toEqual([{ node: 'n1', ready: true }])
  })

  it('no node yet: waiting, never done; cluster messages join the progress line', () => {
    const h: Health = {
      summary: 's',
      sources: {},
      perNode: { progress: 'p', rules: [] },
      cluster: [cluster(true, 'policy ready'), cluster(true, ''), cluster(true, 'daemonset 2/2 ready')],
      warnings: []
    }
    expect(evaluateHealth(h, {}, ctx())).toMatchObject({
      done: false,
      message: 'waiting for nodes of the pool to join, policy ready, daemonset 2/2 ready',
      totalNodes: 0
    })
    expect(evaluateHealth(h, { nodes: [node('n1')] }, ctx())).toMatchObject({
      done: true,
      message: 'p on 1/1 nodes, policy ready, daemonset 2/2 ready'
    })
  })

  it('cluster-level: done when every rule holds; problems in full; the earliest re-check; a give-up wins', () => {
    const h = (rules: ClusterRule[]): Health => ({ summary: 's', sources: {}, cluster: rules, warnings: [] })
    expect(evaluateHealth(h([cluster(true, 'a'), cluster(true, 'b')]), {}, ctx())).toEqual({
      done: true,
      message: 'a, b',
      readyNodes: 0,
      totalNodes: 0,
      nodes: [],
      problems: []
    })
    const waiting = evaluateHealth(
      h([
        cluster(false, 'a', { problem: 'a is wrong', recheckInMs: 500 }),
        cluster(false, 'b', { recheckInMs: 200 }),
        cluster(true, 'c', { recheckInMs: 100 })
      ]),
      {},
      ctx()
    )
    expect(waiting).toMatchObject({
      done: false,
      message: 'a, b, c',
      problems: ['a is wrong', 'b'],
      recheckInMs: 100
    })
    const gaveUp = evaluateHealth(
      h([cluster(false, 'a', { fail: 'nothing will come', recheckInMs: 5 })]),
      {},
      ctx()
    )
    expect(gaveUp.fail).toBe('nothing will come')
    expect(gaveUp.recheckInMs).toBeUndefined()
    const doneNoRecheck = evaluateHealth(h([cluster(true, 'a', { recheckInMs: 5 })]), {}, ctx())
    expect(doneNoRecheck.recheckInMs).toBeUndefined()
  })

  it('a pod of the pool in a failing state fails fast, before the component’s own reason; pods elsewhere do not', () => {
    const crashing = (name: string, nodeName: string): KubeObject => ({
      ...pod(name, nodeName),
      status: {
        phase: 'Running',
        containerStatuses: [
          { name: 'c', restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } } }
        ]
      }
    })
    const h: Health = {
      summary: 's',
      sources: {},
      perNode: { progress: 'p', rules: [] },
      cluster: [cluster(false, 'x', { fail: 'cluster reason' })],
      failFast: pods =>
        pods.length ? `own reason for ${pods.map(p => p.metadata.name).join(',')}` : undefined,
      warnings: []
    }
    const onPool = evaluateHealth(h, { nodes: [node('n1')], pods: [crashing('bad', 'n1')] }, ctx())
    expect(onPool.fail).toBe('pod ns/bad on node n1: container c is in CrashLoopBackOff, 3 restarts')
    // Each failing pool node with its own reason (the pipelined rollout fails that node, not the step).
    expect(onPool.failingNodes).toEqual(
      new Map([['n1', 'pod ns/bad on node n1: container c is in CrashLoopBackOff, 3 restarts']])
    )
    const own = evaluateHealth(
      h,
      { nodes: [node('n1')], pods: [pod('ok', 'n1'), crashing('elsewhere', 'n9')] },
      ctx()
    )
    expect(own.fail).toBe('own reason for ok')
    expect(own.failingNodes).toBeUndefined()
    const none = evaluateHealth(h, { nodes: [node('n1')], pods: [crashing('elsewhere', 'n9')] }, ctx())
    expect(none.fail).toBe('cluster reason')
  })

  it('the plan’s text of a health: its summary, the node rules then the cluster rules', () => {
    const h: Health = {
      summary: 'ready when',
      sources: {},
      perNode: { progress: 'p', rules: [noted('a'), noted('b')] },
      cluster: [cluster(true, 'x')],
      warnings: []
    }
    expect(readinessOf(h)).toEqual({
      summary: 'ready when',
      conditions: ['every RDMA node: t-a', 'every RDMA node: t-b', 'c-x']
    })
    expect(readinessOf({ ...h, perNode: undefined })).toEqual({ summary: 'ready when', conditions: ['c-x'] })
  })
})

describe('the shared rules', () => {
  const ds = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'plugin', namespace: 'kube-system' },
    spec: { selector: { matchLabels: { app: 'plugin', tier: 'node' } } }
  }

  it('a workload’s pods, and the action’s own objects of a kind', () => {
    expect(podsOf(ds)).toEqual({
      name: 'plugin-pods',
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: 'kube-system',
      labelSelector: 'app=plugin,tier=node'
    })
    expect(podsOf({ ...ds, metadata: { name: 'cluster-wide' } })).not.toHaveProperty('namespace')
    expect(managedLike(ds)).toEqual({
      name: 'daemonsets',
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      namespace: 'kube-system',
      labelSelector: 'aks-rdma-action/managed=true'
    })
    expect(managedLike({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } })).toEqual({
      name: 'namespaces',
      apiVersion: 'v1',
      kind: 'Namespace',
      labelSelector: 'aks-rdma-action/managed=true'
    })
    expect(named([pod('a'), pod('b')], 'b')?.metadata.name).toBe('b')
    expect(named(undefined, 'b')).toBeUndefined()
    expect(named([pod('a')], 'b')).toBeUndefined()
    expect(noPod('device plugin', podsOf(ds))).toBe(
      'no device plugin pod (-n kube-system -l app=plugin,tier=node)'
    )
  })

  it('a DaemonSet rolled out: observed, every scheduled pod ready (and updated unless OnDelete), enough of them', () => {
    const live = (
      status: Record<string, number>,
      o: { generation?: number; onDelete?: boolean } = {}
    ): KubeObject => ({
      ...ds,
      metadata: { ...ds.metadata, generation: o.generation ?? 1 },
      spec: { ...ds.spec, ...(o.onDelete ? { updateStrategy: { type: 'OnDelete' } } : {}) },
      status: { observedGeneration: 1, ...status }
    })
    expect(daemonSetRolledOut(undefined, 2)).toEqual({ done: false, detail: 'DaemonSet not found' })
    expect(daemonSetRolledOut(live({ desiredNumberScheduled: 2 }, { generation: 2 }), 2)).toEqual({
      done: false,
      detail: 'DaemonSet controller has not observed the latest spec'
    })
    const full = { desiredNumberScheduled: 2, numberReady: 2, updatedNumberScheduled: 2 }
    expect(daemonSetRolledOut(live(full), 2)).toEqual({ done: true, detail: '2/2 ready, 2/2 updated' })
    expect(daemonSetRolledOut(live(full), 3)).toEqual({ done: false, detail: '2/2 ready, 2/2 updated' })
    expect(daemonSetRolledOut(live({ ...full, numberReady: 1 }), 2).done).toBe(false)
    expect(daemonSetRolledOut(live({ ...full, updatedNumberScheduled: 1 }), 2)).toEqual({
      done: false,
      detail: '2/2 ready, 1/2 updated'
    })
    expect(daemonSetRolledOut(live({ ...full, numberUnavailable: 1 }), 2).done).toBe(false)
    expect(
      daemonSetRolledOut(live({ desiredNumberScheduled: 2, numberReady: 2 }, { onDelete: true }), 2)
    ).toEqual({
      done: true,
      detail: '2/2 ready'
    })
    expect(daemonSetRolledOut({ ...ds, status: undefined } as KubeObject, 0)).toEqual({
      done: true,
      detail: '0/0 ready, 0/0 updated'
    })
  })

  it('rolledOut as a cluster rule: its text, its message and the problem naming the DaemonSet', () => {
    const r = rolledOut(ds)
    expect(r.text).toBe(
      'daemonset/plugin -n kube-system: numberReady == desiredNumberScheduled ≥ RDMA nodes, every pod of the current spec'
    )
    expect(r.check({ daemonsets: [] }, [node('n1')], ctx())).toEqual({
      ok: false,
      message: 'daemonset DaemonSet not found',
      problem: 'daemonset/plugin -n kube-system: DaemonSet not found'
    })
    const done = {
      ...ds,
      metadata: { ...ds.metadata, generation: 0 },
      status: { desiredNumberScheduled: 1, numberReady: 1, updatedNumberScheduled: 1 }
    }
    expect(r.check({ daemonsets: [done] }, [node('n1')], ctx())).toEqual({
      ok: true,
      message: 'daemonset 1/1 ready, 1/1 updated'
    })
  })

  it('stateReady: ready, another state with the component’s own problem, absent, unreadable', () => {
    const rule = stateReady({
      key: 'policies',
      what: 'NicClusterPolicy nic-cluster-policy',
      name: 'nic-cluster-policy',
      short: 'policy',
      problem: o => `state is ${o.status?.state}`
    })
    expect(rule.text).toBe('nicclusterpolicy/nic-cluster-policy status.state == ready')
    const policy = (state?: string) => ({
      apiVersion: 'v',
      kind: 'K',
      metadata: { name: 'nic-cluster-policy' },
      status: state ? { state } : {}
    })
    expect(rule.check({ policies: [policy('ready')] }, [], ctx())).toEqual({
      ok: true,
      message: 'policy state ready'
    })
    expect(rule.check({ policies: [policy('notReady')] }, [], ctx())).toEqual({
      ok: false,
      message: 'policy state notReady',
      problem: 'state is notReady'
    })
    expect(rule.check({ policies: [policy()] }, [], ctx())).toMatchObject({
      ok: false,
      message: 'policy state (none yet)'
    })
    expect(rule.check({ policies: [] }, [], ctx())).toEqual({
      ok: false,
      message: 'policy not found',
      problem: 'NicClusterPolicy nic-cluster-policy not found'
    })
    expect(
      rule.check({ policies: [policy('ready')] }, [], {
        ...ctx(),
        unreadable: { policies: 'HTTP 403\nforbidden' }
      })
    ).toEqual({
      ok: false,
      message: 'policy could not be read',
      problem: 'NicClusterPolicy nic-cluster-policy could not be read: HTTP 403 forbidden'
    })
    expect(rule.check({ policies: [policy('ready')] }, [], { ...ctx(), unreadable: { other: 'x' } }).ok).toBe(
      true
    )
  })

  it('allocatableOn: a quantity above zero, noted; zero or absent, said so', () => {
    const rule = allocatableOn('rdma/shared_ib')
    expect(rule.text).toBe('status.allocatable["rdma/shared_ib"] > 0')
    expect(rule.summarize).toBe(true)
    const n = (v?: string) => ({
      ...node('n1'),
      status: { allocatable: v === undefined ? {} : { 'rdma/shared_ib': v } }
    })
    expect(rule.check(n('1k'), [], ctx())).toEqual({ ok: true, note: 'allocatable rdma/shared_ib = 1k' })
    expect(rule.check(n('0'), [], ctx())).toEqual({ ok: false, detail: 'allocatable rdma/shared_ib = 0' })
    expect(rule.check(n(), [], ctx())).toEqual({ ok: false, detail: 'allocatable rdma/shared_ib = <absent>' })
  })
})
