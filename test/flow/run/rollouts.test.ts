// Both rollouts through the whole action flow (Azure + Kubernetes + the helm stand-in), each on a
// fresh world of the same scenario. The pool's nodes register early while ARM still reports the
// pool Creating, and the pool's create only ends when the test ends it (no race with the machine's
// speed): a pipelined run gets credentials and writes the whole stack, which becomes ready on every
// node, while the pool is still Creating; a sequential run writes nothing to the cluster until it
// has ended. The order is read from the simulator's request log. Both end in the same state
// (objects, node labels, allocatable, one kubelet restart per node) with the guide's order on every
// node, and verification starts only once every readiness condition holds.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import type { KubeObject } from '../../../src/kube/types.js'
import type { ReportStep } from '../../../src/report/report.js'
import type { FlowResult } from '../../../src/run/flow.js'
import type { World } from '../../../sim/world.js'
import { clusterStack } from '../../support/components.js'
import { restoreRunner, runFlowQuietly, secretAuthSettings, runnerWorld } from '../../support/runner-env.js'

jest.setTimeout(600_000)

const POOL = 'rdma'
const TIME_SCALE = 0.01

interface Outcome {
  flow: FlowResult
  /** Where in the request log the pool's create ended (the test ended it there). */
  poolEnded: number
  /** Whether every pool node had the whole stack ready while the pool was still Creating. */
  stackReadyWhileCreating: boolean
  requests: World['recorder']['records']
  end: ReturnType<typeof endState>
  timelines: ReturnType<World['kube']['nodeTimeline']>
  log: string
}

const list = (w: World, group: string, plural: string, ns?: string): KubeObject[] =>
  w.kube.store.list(w.kube.store.type(group, plural)!, ns ? { namespace: ns } : {}).items as KubeObject[]

function endState(w: World) {
  const states = w.kube.nodeStates()
  const names = new Set(Object.keys(states).filter(n => states[n].pool === POOL))
  const nodes = list(w, '', 'nodes').filter(n => names.has(n.metadata.name))
  // Pods of a DaemonSet that is gone (the probe's) terminate with their grace period after the run:
  // the end state is the pods of the DaemonSets that exist.
  const daemonSets = new Set(
    list(w, 'apps', 'daemonsets').map(d => `${d.metadata.namespace}/${d.metadata.name}`)
  )
  return {
    objects: [
      ...list(w, 'apps', 'daemonsets'),
      ...list(w, 'apps', 'deployments'),
      ...list(w, 'mellanox.com', 'nicclusterpolicies'),
      ...list(w, 'nfd.k8s-sigs.io', 'nodefeaturerules'),
      ...list(w, 'nvidia.com', 'clusterpolicies')
    ]
      .map(o => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`)
      .sort(),
    daemonSetPods: list(w, '', 'pods')
      .filter(p => names.has(p.spec?.nodeName) && p.metadata.ownerReferences?.[0]?.kind === 'DaemonSet')
      .filter(p => daemonSets.has(`${p.metadata.namespace}/${p.metadata.ownerReferences![0].name}`))
      .map(p => `${p.metadata.namespace}/${p.metadata.ownerReferences![0].name}@${p.spec.nodeName}`)
      .sort(),
    labels: Object.fromEntries(nodes.map(n => [n.metadata.name, n.metadata.labels])),
    allocatable: Object.fromEntries(nodes.map(n => [n.metadata.name, n.status.allocatable])),
    kubeletRestarts: [...names].sort().map(n => states[n].kubeletRestarts)
  }
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

/** Status polls of a long-running ARM operation (the pool's create: no other runs here). */
const operationPolls = (w: World): number =>
  w.recorder.records.filter(r => r.service === 'arm' && r.method === 'GET' && /\/operations\//.test(r.path))
    .length

/** Every pool node has the whole per-node stack: RDMA advertised and nvidia-peermem ready. */
function stackReadyOnPoolNodes(w: World): boolean {
  const states = w.kube.nodeStates()
  const timelines = Object.entries(w.kube.nodeTimeline()).filter(([n]) => states[n].pool === POOL)
  return timelines.length === 3 && timelines.every(([, t]) => t.rdmaAdvertisedAt && t.peermemReadyAt)
}

/**
 * Ends the pool's create once the run got where it can get while the pool is still Creating:
 * pipelined, the whole stack ready on the pool's (already registered) nodes; sequential, the
 * action polling the create (it waits for it before anything else). A run that never gets there
 * (a regression) has its pool ended after 120 polls, and fails the assertions instead of hanging.
 * Returns where in the request log the create ended, and whether the stack was ready by then.
 */
async function endPoolCreate(
  w: World,
  rollout: string,
  flowEnded: () => boolean
): Promise<{ at: number; stackReady: boolean }> {
  const reached = rollout === 'pipelined' ? () => stackReadyOnPoolNodes(w) : () => operationPolls(w) >= 3
  while (!reached() && operationPolls(w) < 120) {
    if (flowEnded()) throw new Error(`the ${rollout} run ended before the pool's create did`)
    await sleep(20)
  }
  const at = w.recorder.records.length
  const stackReady = stackReadyOnPoolNodes(w)
  expect(w.azure.finishPoolOperation(POOL)).toBe(true)
  return { at, stackReady }
}

/** A fresh world of the scenario, the action's flow run on it in-process, its state read, closed. */
async function runOn(rollout: 'sequential' | 'pipelined'): Promise<Outcome> {
  const world = await runnerWorld('rollout-runner', {
    kube: { timeScale: TIME_SCALE, delays: { mofed: '60s', gpuDriver: '40s', default: '5s' } },
    azure: {
      // The create would take 100000 simulated s; the test ends it (endPoolCreate). The VMs
      // register as nodes from 10 s on, while ARM still reports Creating (as in AKS).
      poolProvisioning: { polls: 0, result: 'Succeeded', duration: '100000s', bootDelay: '10s' }
    },
    nodes: { joinSpread: '40s' }
  })
  const out: string[] = []
  try {
    const settings = secretAuthSettings(world, {
      mode: 'apply',
      'node-pool': POOL,
      'node-count': '3',
      benchmark: 'false',
      timeout: '60m',
      'step-timeout': '30m',
      retries: '3',
      // The per-node order checked below ends in nvidia-peermem: the peermem path.
      gpudirect: 'peermem',
      rollout
    })
    let ended = false
    const flowRun = runFlowQuietly({ ...settings, runId: `rollout-${rollout}` }, out).finally(
      () => (ended = true)
    )
    const [flow, pool] = await Promise.all([flowRun, endPoolCreate(world, rollout, () => ended)])
    return {
      flow,
      poolEnded: pool.at,
      stackReadyWhileCreating: pool.stackReady,
      requests: [...world.recorder.records],
      end: endState(world),
      timelines: Object.fromEntries(
        Object.entries(world.kube.nodeTimeline()).filter(([n]) => world.kube.nodeStates()[n].pool === POOL)
      ),
      log: out.join('')
    }
  } finally {
    await world.close()
  }
}

let seq: Outcome
let pip: Outcome

beforeAll(async () => {
  seq = await runOn('sequential')
  pip = await runOn('pipelined')
})

afterAll(() => {
  restoreRunner()
})

const at = (steps: ReportStep[], name: string) => {
  const s = steps.find(x => x.name === name)
  if (!s) throw new Error(`no step ${name} in ${steps.map(x => x.name).join(', ')}`)
  return { start: Date.parse(s.startedAt ?? ''), end: Date.parse(s.finishedAt ?? ''), step: s }
}
const STACK = clusterStack()

describe('rollout through the whole flow', () => {
  it('both succeed, with the same steps in the same order', () => {
    for (const o of [seq, pip]) {
      if (o.flow.exitCode !== 0) console.log(o.log.slice(-6000))
      expect(o.flow.report.steps.map(s => [s.name, s.status])).toEqual(
        ['azure-sign-in', 'infiniband-feature', 'node-pool', 'credentials', ...STACK, 'verify'].map(n => [
          n,
          'success'
        ])
      )
      expect(o.flow.exitCode).toBe(0)
      expect(o.flow.report.result).toBe('success')
    }
  })

  it('pipelined gets credentials and writes the whole stack while the pool is Creating; sequential waits', () => {
    const credentials = (o: Outcome) =>
      o.requests.findIndex(r => r.service === 'arm' && /\/listClusterUserCredential$/.test(r.path))
    const kubeWrites = (o: Outcome) =>
      o.requests
        .filter(r => r.service === 'kube' && r.mutating)
        .map(r => ({ ...r, at: o.requests.indexOf(r) }))
    // Pipelined: every stack component was written, and ready on every node, before the pool's create ended.
    expect(pip.stackReadyWhileCreating).toBe(true)
    expect(credentials(pip)).toBeGreaterThanOrEqual(0)
    expect(credentials(pip)).toBeLessThan(pip.poolEnded)
    const before = new Set(
      kubeWrites(pip)
        .filter(w => w.at < pip.poolEnded)
        .map(w => w.resource)
    )
    for (const resource of [
      'nodefeaturerules',
      'nicclusterpolicies',
      'daemonsets',
      'configmaps',
      'clusterpolicies'
    ])
      expect({ resource, writtenWhilePoolCreating: before.has(resource) }).toEqual({
        resource,
        writtenWhilePoolCreating: true
      })
    // Sequential: nothing reached the cluster (credentials included) before the pool's create ended.
    expect(seq.stackReadyWhileCreating).toBe(false)
    expect(credentials(seq)).toBeGreaterThan(seq.poolEnded)
    expect(kubeWrites(seq).filter(w => w.at < seq.poolEnded)).toEqual([])
  })

  it('sequential awaits each stack step before the next', () => {
    const s = seq.flow.report.steps
    expect(at(s, 'credentials').start).toBeGreaterThanOrEqual(at(s, 'node-pool').end)
    for (let i = 1; i < STACK.length; i++)
      expect(at(s, STACK[i]).start).toBeGreaterThanOrEqual(at(s, STACK[i - 1]).end)
  })

  it('verification starts only once every readiness condition holds', () => {
    for (const o of [seq, pip]) {
      const steps = o.flow.report.steps
      const ready = Math.max(...[...STACK, 'node-pool'].map(n => at(steps, n).end))
      expect(at(steps, 'verify').start).toBeGreaterThanOrEqual(ready)
      expect(o.flow.report.checks.every(c => c.status === 'pass')).toBe(true)
    }
  })

  it('ends in the same state, with the guide order on every node and one kubelet restart each', () => {
    expect(pip.end).toEqual(seq.end)
    expect(pip.end.kubeletRestarts).toEqual([1, 1, 1])
    for (const o of [seq, pip])
      for (const [node, t] of Object.entries(o.timelines)) {
        expect([node, t.ofedReadyAt! <= t.ibNodeConfigInitAt!]).toEqual([node, true])
        expect([node, t.ibNodeConfigInitAt! <= t.devicePluginStartedAt!]).toEqual([node, true])
        expect([node, t.ofedReadyAt! <= t.peermemReadyAt!]).toEqual([node, true])
      }
  })
})
