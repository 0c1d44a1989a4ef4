// Both rollouts through the whole action flow (Azure + Kubernetes + the helm stand-in), each on a
// fresh world of the same scenario with a time-based pool creation: the pool's nodes register
// while ARM still reports Creating; pipelined runs credentials and the stack alongside the pool's
// creation (the steps overlap in the report) while sequential waits for it; both end in the same
// state (objects, node labels, allocatable, one kubelet restart per node) with the guide's order on
// every node, and verification starts only once every readiness condition holds.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import tls from 'node:tls'
import type { KubeObject } from '../src/kube/types.js'
import type { ReportStep } from '../src/report/report.js'
import { runFlowWithReport, type FlowResult } from '../src/run/flow.js'
import { readSettings } from '../src/settings/input-helper.js'
import { startWorld, type World } from '../sim/world.js'
import { helmStandinBinDir } from './support/helm-standin-bin.js'
import { reader } from './support/inputs.js'

jest.setTimeout(600_000)

const POOL = 'rdma'
const TIME_SCALE = 0.01
const savedEnv = { ...process.env }
const originalCAs = [...tls.getCACertificates('bundled'), ...tls.getCACertificates('extra')]

interface Outcome {
  flow: FlowResult
  /** Simulated ms of the world at the wall time `iso`. */
  simAt(iso: string): number
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
      .map(p => `${p.metadata.namespace}/${p.metadata.ownerReferences![0].name}@${p.spec.nodeName}`)
      .sort(),
    labels: Object.fromEntries(nodes.map(n => [n.metadata.name, n.metadata.labels])),
    allocatable: Object.fromEntries(nodes.map(n => [n.metadata.name, n.status.allocatable])),
    kubeletRestarts: [...names].sort().map(n => states[n].kubeletRestarts)
  }
}

/** A fresh world of the scenario, the action's flow run on it in-process, its state read, closed. */
async function runOn(rollout: 'sequential' | 'pipelined'): Promise<Outcome> {
  const bin = await helmStandinBinDir()
  const world = await startWorld({
    helmCommand: [path.join(bin, 'helm')],
    scenarioOverrides: {
      kube: { timeScale: TIME_SCALE, delays: { mofed: '60s', gpuDriver: '40s', default: '5s' } },
      azure: {
        feature: { state: 'Registered' },
        poolProvisioning: { polls: 0, result: 'Succeeded', duration: '1800s' },
        tokens: { accessTokenLifetime: '1000h' }
      },
      nodes: { joinSpread: '40s' }
    }
  })
  const out: string[] = []
  const write = process.stdout.write.bind(process.stdout)
  try {
    tls.setDefaultCACertificates([...originalCAs, world.tls.caPem])
    const env = world.env()
    delete (env as Record<string, string>).KUBECONFIG
    process.env = { ...savedEnv, ...env, RUNNER_TEMP: mkdtempSync(path.join(tmpdir(), 'rollout-runner-')) }
    for (const k of Object.keys(process.env))
      if (k.startsWith('GITHUB_') || k.startsWith('INPUT_')) delete process.env[k]
    const r = readSettings(
      reader({
        ...world.inputs(),
        'client-secret': world.scenario.azure.clientSecret,
        'auth-type': 'secret',
        mode: 'apply',
        'node-pool': POOL,
        'node-count': '3',
        benchmark: 'false',
        timeout: '60m',
        'step-timeout': '30m',
        retries: '3',
        rollout
      })
    )
    process.stdout.write = ((chunk: string | Uint8Array) => {
      out.push(String(chunk))
      return true
    }) as typeof process.stdout.write
    const flow = await runFlowWithReport({ ...r.settings, runId: `rollout-${rollout}` })
    process.stdout.write = write
    const clock = world.clock
    return {
      flow,
      simAt: iso => clock.now() - (Date.now() - Date.parse(iso)) / TIME_SCALE,
      end: endState(world),
      timelines: Object.fromEntries(
        Object.entries(world.kube.nodeTimeline()).filter(([n]) => world.kube.nodeStates()[n].pool === POOL)
      ),
      log: out.join('')
    }
  } finally {
    process.stdout.write = write
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
  process.env = { ...savedEnv }
  tls.setDefaultCACertificates(originalCAs)
})

const at = (steps: ReportStep[], name: string) => {
  const s = steps.find(x => x.name === name)
  if (!s) throw new Error(`no step ${name} in ${steps.map(x => x.name).join(', ')}`)
  return { start: Date.parse(s.startedAt ?? ''), end: Date.parse(s.finishedAt ?? ''), step: s }
}
const STACK = [
  'network-operator',
  'node-feature-rule',
  'nic-cluster-policy',
  'ib-node-config',
  'rdma-device-plugin',
  'gpu-operator'
]

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

  it('the pool nodes join while ARM still reports the pool Creating', () => {
    for (const o of [seq, pip]) {
      const pool = at(o.flow.report.steps, 'node-pool')
      const joined = Object.values(o.timelines).map(t => t.joinedAt!)
      expect(joined).toHaveLength(3)
      expect(Math.max(...joined)).toBeLessThan(o.simAt(pool.step.finishedAt ?? ''))
    }
  })

  it('pipelined overlaps credentials and the stack with the pool creation; sequential does not', () => {
    const p = pip.flow.report.steps
    expect(at(p, 'credentials').start).toBeLessThan(at(p, 'node-pool').end)
    expect(at(p, 'network-operator').start).toBeLessThan(at(p, 'node-pool').end)
    // The GPU Operator (whose driver builds in parallel with OFED) is written while the pool still provisions.
    expect(at(p, 'gpu-operator').start).toBeLessThan(at(p, 'node-pool').end)
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
