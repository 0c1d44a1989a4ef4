// The pipelined rollout over a Run whose converge, diagnose and watch sources the test controls
// (the registry's components and placements, each with a small health rule: a node label per step
// on the pool's nodes of a MemoryCluster, its pods' fail-fast states): the order of writes (the
// cluster-level step and a driver rollout awaited first, the rest written while earlier waits run
// in the background), per-node progress lines, the node pool still provisioning or failed, a node
// failure blocking only the dependent steps there, a whole-step failure stopping its dependents,
// the step deadline counted from when a step could progress, and the report steps.
import type { ComponentName } from '../../../src/components/index.js'
import type { KubeObject } from '../../../src/kube/types.js'
import type { PoolInfo } from '../../../src/stack/pipeline-gates.js'
import { applyPipelined } from '../../../src/stack/pipelined.js'
import { ComponentStepFailure } from '../../../src/stack/run.js'
import { useFixedNow } from '../../support/fixed-now.js'
import { failedWalk, stepFailure } from '../../support/stack-walk-outcome.js'
import {
  nodeHealth,
  scriptedRun,
  skippedAt,
  stateHealth,
  stepAt,
  type Script
} from '../../support/scripted-run.js'

const T0 = Date.UTC(2026, 0, 1)
const STEP_TIMEOUT = 1_500_000
const RUN_TIMEOUT = 3_600_000
const POOL = 'rdmapool'
const now = useFixedNow(T0)

const iso = (ms: number): string => new Date(ms).toISOString()
const turn = (): Promise<void> => new Promise(r => setImmediate(r))

/** Lets the event loop turn until `cond` holds (everything is in memory: a few turns). */
async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (cond()) return
    await turn()
  }
  throw new Error(`never happened: ${what}`)
}

function harness(
  o: {
    deadline?: number
    stepTimeoutMs?: number
    nodePool?: Promise<PoolInfo>
    scripts?: Partial<Record<ComponentName, Script>>
  } = {}
) {
  const h = scriptedRun({
    t0: T0,
    deadline: o.deadline ?? T0 + RUN_TIMEOUT,
    stepTimeoutMs: o.stepTimeoutMs ?? STEP_TIMEOUT,
    ...(o.nodePool ? { ctx: { nodePool: o.nodePool } } : {}),
    ...(o.scripts ? { scripts: o.scripts } : {}),
    health: (name, seen) => (name === 'network-operator' ? stateHealth(name) : nodeHealth(name, seen))
  })
  const { settings, log, cluster } = h
  settings.nodePool.name = POOL
  const progress: string[] = []
  // A wait that ends ends its key's live line (an empty line): recorded as `end: <key>` / `(end)`.
  log.progress = (key, m) => {
    log.lines.push(m ? `info: ${m}` : `end: ${key}`)
    progress.push(`${key}|${m || '(end)'}`)
  }
  const labels = new Map<string, Set<string>>()
  /** Puts the pool node `name` with the steps ready on it. */
  const node = (name: string, ...ready: string[]): void => {
    const set = labels.get(name) ?? new Set<string>()
    for (const r of ready) set.add(r)
    labels.set(name, set)
    cluster.put({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: {
          'kubernetes.azure.com/agentpool': POOL,
          ...Object.fromEntries([...set].map(r => [`ready.${r}`, 'true']))
        }
      }
    })
  }
  /** A pod of step `name` on `nodeName` whose container crash-loops. */
  const crash = (name: string, nodeName: string): KubeObject =>
    cluster.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `${name}-${nodeName}`, namespace: 'test', labels: { app: name } },
      spec: { nodeName, containers: [{ name: 'main' }] },
      status: {
        phase: 'Running',
        containerStatuses: [
          { name: 'main', ready: false, restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } } }
        ]
      }
    })
  const progressOf = (name: string): string[] =>
    progress.filter(p => p.startsWith(`${name}|`)).map(p => p.slice(name.length + 1))
  return { ...h, node, crash, progressOf }
}

const crashReason = (name: string, n: string): string =>
  `pod test/${name}-${n} on node ${n}: container main is in CrashLoopBackOff, 3 restarts`

/**
 * Checks a walk that converged node-feature-rule and nic-cluster-policy at once and then failed
 * `step` with `text`, with the steps as reported.
 */
async function expectBothThenFailed(
  h: { events: string[] },
  p: Promise<unknown>,
  step: string,
  text: string,
  steps: unknown[]
): Promise<void> {
  const out = await p
  expect(h.events).toEqual(['converge node-feature-rule at 0', 'converge nic-cluster-policy at 0'])
  expect(out).toEqual(failedWalk(step, text, steps))
}

describe('applyPipelined', () => {
  it('awaits the cluster-level step, then writes the rest while their waits run per node', async () => {
    const h = harness({
      scripts: {
        'network-operator': {
          applied: { changed: true, created: true, details: ['helm install network-operator'] }
        },
        'node-feature-rule': { applied: { changed: true, created: false, details: ['rule updated'] } }
      }
    })
    h.setState('network-operator', 'ready')
    h.node('n1')
    h.node('n2')
    const p = applyPipelined(h.run, [
      h.step('network-operator'),
      h.step('node-feature-rule'),
      h.step('nic-cluster-policy')
    ])
    await until(() => h.progressOf('nic-cluster-policy').length > 0, 'nic-cluster-policy waits')
    expect(h.events).toEqual([
      'converge network-operator at 0',
      'converge node-feature-rule at 0',
      'converge nic-cluster-policy at 0'
    ])
    now.ms = T0 + 2000
    h.node('n1', 'node-feature-rule', 'nic-cluster-policy')
    await until(
      () =>
        h
          .progressOf('nic-cluster-policy')
          .includes('nic-cluster-policy: nic-cluster-policy ready on 1/2 nodes (2s)'),
      'n1 ready'
    )
    now.ms = T0 + 5000
    h.node('n2', 'node-feature-rule', 'nic-cluster-policy')
    const out = await p
    expect(out).toEqual({
      ok: true,
      diagnostics: [],
      steps: [
        stepAt('network-operator', 'success', T0, T0, 'helm install network-operator; ready: state ready', {
          changed: true,
          action: 'created'
        }),
        stepAt(
          'node-feature-rule',
          'success',
          T0,
          T0 + 5000,
          'rule updated; ready: node-feature-rule ready on 2/2 nodes',
          { changed: true, action: 'updated' }
        ),
        stepAt(
          'nic-cluster-policy',
          'success',
          T0,
          T0 + 5000,
          'unchanged; ready: nic-cluster-policy ready on 2/2 nodes',
          { action: 'unchanged' }
        )
      ]
    })
    expect(
      h.log.lines.filter(l => !l.startsWith('info: node-feature-rule: node-feature-rule ready'))
    ).toEqual([
      'group: network-operator: network-operator title',
      'endgroup',
      'info: network-operator: state ready (0ms)',
      'end: network-operator',
      'group: node-feature-rule: node-feature-rule title',
      'endgroup',
      'info: node-feature-rule: written; waiting per node in the background while the next steps are written',
      'group: nic-cluster-policy: nic-cluster-policy title',
      'endgroup',
      'info: nic-cluster-policy: written; waiting per node in the background while the next steps are written',
      'info: nic-cluster-policy: nic-cluster-policy ready on 0/2 nodes (0ms)',
      'info: nic-cluster-policy: nic-cluster-policy ready on 1/2 nodes (2s)',
      'end: node-feature-rule',
      'info: nic-cluster-policy: nic-cluster-policy ready on 2/2 nodes (5s)',
      'end: nic-cluster-policy'
    ])
    // Each wait ends its live line when it is over.
    expect(h.progressOf('node-feature-rule')).toEqual([
      'node-feature-rule: node-feature-rule ready on 0/2 nodes (0ms)',
      'node-feature-rule: node-feature-rule ready on 1/2 nodes (2s)',
      'node-feature-rule: node-feature-rule ready on 2/2 nodes (5s)',
      '(end)'
    ])
    // The background waits have until the run's deadline; the cluster-level one too.
    expect(h.waits).toEqual([
      { step: 'network-operator', started: 0, timeoutMs: RUN_TIMEOUT },
      { step: 'node-feature-rule', started: 0, timeoutMs: RUN_TIMEOUT },
      { step: 'nic-cluster-policy', started: 0, timeoutMs: RUN_TIMEOUT }
    ])
    expect(h.cluster.openWatches).toBe(0)
  })

  it('fails a node where a step crash-loops, blocks the dependent steps there only, and the others finish', async () => {
    const h = harness()
    h.node('n1')
    h.node('n2')
    const p = applyPipelined(h.run, [
      h.step('node-feature-rule'),
      h.step('nic-cluster-policy'),
      h.step('ib-node-config'),
      h.step('rdma-device-plugin'),
      h.step('gpu-operator')
    ])
    await until(() => h.progressOf('gpu-operator').length > 0, 'all waits')
    now.ms = T0 + 1000
    h.node(
      'n1',
      'node-feature-rule',
      'nic-cluster-policy',
      'ib-node-config',
      'rdma-device-plugin',
      'gpu-operator'
    )
    h.node('n2', 'node-feature-rule')
    h.crash('nic-cluster-policy', 'n2')
    const out = await p
    const nicReason = crashReason('nic-cluster-policy', 'n2')
    const nicFailure = `nic-cluster-policy failed on n2 (the other nodes went on): node n2: ${nicReason}`
    expect(out.ok).toBe(false)
    expect(out.steps.map(s => [s.name, s.status, s.detail])).toEqual([
      ['node-feature-rule', 'success', 'unchanged; ready: node-feature-rule ready on 2/2 nodes'],
      [
        'nic-cluster-policy',
        'failure',
        `unchanged; not ready on 1 of 2 nodes: node n2: ${nicReason} (nic-cluster-policy ready on 1/2 nodes; failing on n2)`
      ],
      [
        'ib-node-config',
        'failure',
        'unchanged; not ready on 1 of 2 nodes: node n2: blocked (nic-cluster-policy failed there) (ib-node-config ready on 1/2 nodes; blocked on n2 (nic-cluster-policy not ready there))'
      ],
      [
        'rdma-device-plugin',
        'failure',
        'unchanged; not ready on 1 of 2 nodes: node n2: blocked (nic-cluster-policy failed there) (rdma-device-plugin ready on 1/2 nodes; blocked on n2 (nic-cluster-policy not ready there))'
      ],
      [
        'gpu-operator',
        'failure',
        'unchanged; not ready on 1 of 2 nodes: node n2: blocked (nic-cluster-policy failed there) (gpu-operator ready on 1/2 nodes; blocked on n2 (nic-cluster-policy not ready there))'
      ]
    ])
    // A failed step that wrote nothing has no action.
    expect(out.steps[1]).toEqual(stepAt('nic-cluster-policy', 'failure', T0, T0 + 1000, out.steps[1].detail))
    // Only the step that failed on the node is diagnosed; the blocked ones say why in an error line.
    expect(out.diagnostics).toEqual([stepFailure('nic-cluster-policy', nicFailure)])
    const e = h.diagnosed[0].error as ComponentStepFailure
    expect(h.diagnosed.map(d => d.step)).toEqual(['nic-cluster-policy'])
    expect(e).toBeInstanceOf(ComponentStepFailure)
    expect(e.verdict?.fail).toBe(`node n2: ${nicReason}`)
    expect(e.verdict?.message).toBe('nic-cluster-policy ready on 1/2 nodes; failing on n2')
    expect(e.snapshot?.pods.map(x => x.metadata.name)).toEqual(['nic-cluster-policy-n2'])
    expect(h.log.lines.filter(l => l.startsWith('error:'))).toEqual([
      'error: ib-node-config: not ready on 1 of 2 nodes: node n2: blocked (nic-cluster-policy failed there)',
      'error: gpu-operator: not ready on 1 of 2 nodes: node n2: blocked (nic-cluster-policy failed there)',
      // It is done only once ib-node-config, which it depends on, has settled.
      'error: rdma-device-plugin: not ready on 1 of 2 nodes: node n2: blocked (nic-cluster-policy failed there)'
    ])
    expect(h.progressOf('gpu-operator')).toContain(
      'gpu-operator: gpu-operator ready on 1/2 nodes; blocked on n2 (nic-cluster-policy not ready there) (1s)'
    )
  })

  it('names at most three nodes in the progress line and the failure, sorted, and counts the rest', async () => {
    const h = harness()
    for (const n of ['n5', 'n4', 'n3', 'n2', 'n1']) h.node(n)
    const p = applyPipelined(h.run, [h.step('nic-cluster-policy'), h.step('gpu-operator')])
    await until(() => h.progressOf('gpu-operator').length > 0, 'waits')
    h.node('n1', 'nic-cluster-policy', 'gpu-operator')
    for (const n of ['n5', 'n3', 'n4', 'n2']) h.crash('nic-cluster-policy', n)
    const out = await p
    expect(out.steps[0].detail).toContain(
      '(nic-cluster-policy ready on 1/5 nodes; failing on n2, n3, n4 and 1 more)'
    )
    expect(out.steps[0].detail).toContain('not ready on 4 of 5 nodes: node n2: ')
    expect(out.steps[1].detail).toBe(
      'unchanged; not ready on 4 of 5 nodes: node n2: blocked (nic-cluster-policy failed there); node n3: blocked (nic-cluster-policy failed there); node n4: blocked (nic-cluster-policy failed there); node n5: blocked (nic-cluster-policy failed there) (gpu-operator ready on 1/5 nodes; blocked on n2, n3, n4 and 1 more (nic-cluster-policy not ready there))'
    )
    expect(out.diagnostics.map(d => d.title)).toEqual([
      `nic-cluster-policy: nic-cluster-policy failed on n2, n3, n4 and 1 more (the other nodes went on): node n2: ${crashReason('nic-cluster-policy', 'n2')}; node n3: ${crashReason('nic-cluster-policy', 'n3')}; node n4: ${crashReason('nic-cluster-policy', 'n4')}; node n5: ${crashReason('nic-cluster-policy', 'n5')}`
    ])
  })

  it('names three failing nodes in full', async () => {
    const h = harness()
    for (const n of ['n1', 'n2', 'n3']) h.node(n)
    const p = applyPipelined(h.run, [h.step('nic-cluster-policy')])
    await until(() => h.progressOf('nic-cluster-policy').length > 0, 'wait')
    for (const n of ['n3', 'n1', 'n2']) h.crash('nic-cluster-policy', n)
    const out = await p
    expect(out.steps[0].detail).toContain('(nic-cluster-policy ready on 0/3 nodes; failing on n1, n2, n3)')
  })

  it('stops the waits of the steps that depend on a step failed as a whole, and does not start later ones', async () => {
    const h = harness({
      scripts: {
        'node-feature-rule': { applied: { changed: true, created: true, details: ['rule created'] } },
        'nic-cluster-policy': {
          applied: {
            changed: true,
            created: false,
            details: ['policy updated'],
            rolling: 'the DOCA driver is replaced node by node'
          }
        }
      }
    })
    h.node('n1')
    const p = applyPipelined(h.run, [
      h.step('node-feature-rule'),
      h.step('nic-cluster-policy'),
      h.step('ib-node-config'),
      h.step('gpu-operator', { enabled: false, skipReason: 'gpu-operator input is false' })
    ])
    await until(() => h.progressOf('nic-cluster-policy').length > 0, 'nic waits')
    now.ms = T0 + 3000
    h.setState('node-feature-rule', 'broken')
    await expectBothThenFailed(h, p, 'node-feature-rule', 'node-feature-rule is broken', [
      stepAt('node-feature-rule', 'failure', T0, T0 + 3000, 'rule created; node-feature-rule is broken', {
        changed: true,
        action: 'created'
      }),
      stepAt(
        'nic-cluster-policy',
        'skipped',
        T0,
        T0 + 3000,
        'policy updated; stopped waiting: node-feature-rule failed',
        { changed: true, action: 'updated' }
      ),
      skippedAt('ib-node-config', T0 + 3000, 'not run: nic-cluster-policy stopped'),
      skippedAt('gpu-operator', T0 + 3000, 'gpu-operator input is false')
    ])
    const e = h.diagnosed[0].error as ComponentStepFailure
    expect(h.diagnosed.map(d => d.step)).toEqual(['node-feature-rule'])
    expect(e).toBeInstanceOf(ComponentStepFailure)
    expect(e.message).toBe('node-feature-rule is broken')
    expect(e.snapshot?.states.map(o => o.data.state)).toEqual(['broken'])
    expect(h.log.lines).toContain(
      'info: nic-cluster-policy: the DOCA driver is replaced node by node; the next components are written once it is done'
    )
    expect(h.log.lines).toContain('info: nic-cluster-policy: stopped waiting: node-feature-rule failed')
    expect(h.log.lines).not.toContain(
      'info: nic-cluster-policy: written; waiting per node in the background while the next steps are written'
    )
  })

  it('awaits a step that rolls a driver before writing the next', async () => {
    const h = harness({
      scripts: {
        'nic-cluster-policy': {
          applied: { changed: true, created: false, details: ['policy updated'], rolling: 'drivers roll' }
        }
      }
    })
    h.node('n1', 'node-feature-rule')
    const p = applyPipelined(h.run, [h.step('nic-cluster-policy'), h.step('ib-node-config')])
    await until(() => h.progressOf('nic-cluster-policy').length > 0, 'nic waits')
    expect(h.events).toEqual(['converge nic-cluster-policy at 0'])
    now.ms = T0 + 4000
    h.node('n1', 'nic-cluster-policy', 'ib-node-config')
    const out = await p
    expect(h.events).toEqual(['converge nic-cluster-policy at 0', 'converge ib-node-config at 4000'])
    expect(out.ok).toBe(true)
    expect(out.steps.map(s => [s.name, s.status, s.action, s.detail])).toEqual([
      [
        'nic-cluster-policy',
        'success',
        'updated',
        'policy updated; ready: nic-cluster-policy ready on 1/1 nodes'
      ],
      ['ib-node-config', 'success', 'unchanged', 'unchanged; ready: ib-node-config ready on 1/1 nodes']
    ])
  })

  it('fails the cluster-level step before writing the rest, which are reported as not run', async () => {
    const h = harness({
      scripts: { 'network-operator': { applied: { changed: true, created: false, details: ['x'] } } }
    })
    h.setState('network-operator', 'broken')
    const out = await applyPipelined(h.run, [
      h.step('network-operator'),
      h.step('node-feature-rule'),
      h.step('gpu-operator', { enabled: false })
    ])
    expect(h.events).toEqual(['converge network-operator at 0'])
    expect(out).toEqual(
      failedWalk('network-operator', 'network-operator is broken', [
        stepAt('network-operator', 'failure', T0, T0, 'x; network-operator is broken', {
          changed: true,
          action: 'updated'
        }),
        skippedAt('node-feature-rule', T0, 'not run: network-operator failed'),
        skippedAt('gpu-operator', T0, 'disabled by the settings')
      ])
    )
  })

  it('fails a step whose converge throws; the waits already running still finish', async () => {
    const h = harness({ scripts: { 'nic-cluster-policy': { throws: new Error('helm upgrade failed') } } })
    h.node('n1')
    const p = applyPipelined(h.run, [
      h.step('node-feature-rule'),
      h.step('nic-cluster-policy'),
      h.step('gpu-operator')
    ])
    await until(() => h.diagnosed.length > 0, 'nic fails')
    now.ms = T0 + 2000
    h.node('n1', 'node-feature-rule')
    await expectBothThenFailed(h, p, 'nic-cluster-policy', 'helm upgrade failed', [
      expect.objectContaining({
        name: 'node-feature-rule',
        status: 'success',
        finishedAt: iso(T0 + 2000),
        detail: 'unchanged; ready: node-feature-rule ready on 1/1 nodes'
      }),
      stepAt('nic-cluster-policy', 'failure', T0, T0, 'helm upgrade failed'),
      skippedAt('gpu-operator', T0, 'not run: nic-cluster-policy failed')
    ])
    expect(h.log.lines.filter(l => !l.includes('ready on')).slice(0, 5)).toEqual([
      'group: node-feature-rule: node-feature-rule title',
      'endgroup',
      'info: node-feature-rule: written; waiting per node in the background while the next steps are written',
      'group: nic-cluster-policy: nic-cluster-policy title',
      'endgroup'
    ])
  })

  it('does not start a step once the run deadline is reached, and starts one a millisecond before', async () => {
    const late = harness({ deadline: T0 })
    const out = await applyPipelined(late.run, [late.step('network-operator')])
    expect(late.events).toEqual([])
    expect(out.ok).toBe(false)
    expect(out.steps[0]).toEqual(
      stepAt('network-operator', 'failure', T0, T0, 'the run timeout was reached before this step started')
    )
    expect(late.diagnosed[0].error).toBeInstanceOf(ComponentStepFailure)

    const inTime = harness({ deadline: T0 + 1 })
    inTime.setState('network-operator', 'ready')
    const ok = await applyPipelined(inTime.run, [inTime.step('network-operator')])
    expect(inTime.events).toEqual(['converge network-operator at 0'])
    expect(ok.ok).toBe(true)
    expect(inTime.waits).toEqual([{ step: 'network-operator', started: 0, timeoutMs: 1 }])
  })

  it('fails a background wait at the run deadline with its last state', async () => {
    const h = harness({ deadline: T0 + 5 })
    h.node('n1')
    const out = await applyPipelined(h.run, [h.step('node-feature-rule')])
    expect(h.waits).toEqual([{ step: 'node-feature-rule', started: 0, timeoutMs: 5 }])
    expect(out.steps[0]).toEqual(
      stepAt(
        'node-feature-rule',
        'failure',
        T0,
        T0,
        'unchanged; not ready after 0ms (the run timeout): node-feature-rule ready on 0/1 nodes'
      )
    )
    expect(out.diagnostics.map(d => d.step)).toEqual(['node-feature-rule'])
  })

  it('counts a step as done only once the provisioning pool is ready and all its nodes joined', async () => {
    let resolve!: (p: PoolInfo) => void
    const pool = new Promise<PoolInfo>(r => (resolve = r))
    const h = harness({ nodePool: pool })
    const p = applyPipelined(h.run, [h.step('node-feature-rule')])
    await until(() => h.progressOf('node-feature-rule').length > 0, 'wait')
    now.ms = T0 + 1000
    h.node('n1', 'node-feature-rule')
    await until(() => h.progressOf('node-feature-rule').length > 1, 'n1 joined')
    now.ms = T0 + 2000
    resolve({ count: 2 })
    await until(() => h.progressOf('node-feature-rule').length > 2, 'pool ready')
    now.ms = T0 + 4000
    h.node('n2', 'node-feature-rule')
    const out = await p
    expect(h.progressOf('node-feature-rule')).toEqual([
      'node-feature-rule: waiting for nodes of the pool to join; node pool still provisioning (0ms)',
      'node-feature-rule: node-feature-rule ready on 1/1 nodes; node pool still provisioning (1s)',
      'node-feature-rule: node-feature-rule ready on 1/1 nodes; 1/2 nodes joined (2s)',
      'node-feature-rule: node-feature-rule ready on 2/2 nodes (4s)',
      '(end)'
    ])
    expect(out.ok).toBe(true)
    expect(out.steps[0].finishedAt).toBe(iso(T0 + 4000))
    // The health rules' clock starts when the first node of the pool is seen.
    expect(h.seen.map(s => s.elapsedMs)).toEqual([0, 1000, 3000, 3000])
    expect(h.seen.every(s => s.nfdGraceMs === 7000)).toBe(true)
  })

  it('stops the pool-node waits when the pool fails, and does not start pool-node steps after it', async () => {
    let reject!: (e: unknown) => void
    const pool = new Promise<PoolInfo>((_r, j) => (reject = j))
    const h = harness({ nodePool: pool })
    h.setState('network-operator', 'ready')
    const p = applyPipelined(h.run, [h.step('network-operator'), h.step('node-feature-rule')])
    await until(() => h.progressOf('node-feature-rule').length > 0, 'wait')
    now.ms = T0 + 1000
    reject(new Error('quota exceeded'))
    const out = await p
    expect(out.ok).toBe(false)
    expect(out.steps.map(s => [s.name, s.status, s.detail])).toEqual([
      ['network-operator', 'success', 'unchanged; ready: state ready'],
      ['node-feature-rule', 'skipped', 'unchanged; stopped waiting: the node pool failed (quota exceeded)']
    ])
    expect(out.diagnostics).toEqual([])

    now.ms = T0
    const failed = harness({ nodePool: Promise.reject(new Error('no capacity')) })
    failed.setState('network-operator', 'ready')
    const after = await applyPipelined(failed.run, [
      failed.step('network-operator'),
      failed.step('node-feature-rule')
    ])
    expect(failed.events).toEqual(['converge network-operator at 0'])
    expect(after.steps.map(s => [s.name, s.status, s.detail])).toEqual([
      ['network-operator', 'success', 'unchanged; ready: state ready'],
      ['node-feature-rule', 'skipped', 'not run: the node pool failed (no capacity)']
    ])
    expect(after.ok).toBe(false)
  })

  it('counts the step timeout from when the pool is ready, not while it provisions', async () => {
    let resolve!: (p: PoolInfo) => void
    const pool = new Promise<PoolInfo>(r => (resolve = r))
    const h = harness({ nodePool: pool, stepTimeoutMs: 1000 })
    h.node('n1')
    const p = applyPipelined(h.run, [h.step('node-feature-rule')])
    await until(() => h.progressOf('node-feature-rule').length > 0, 'wait')
    now.ms = T0 + 50_000
    h.setState('node-feature-rule', 'still')
    await until(() => h.seen.length > 1, 'evaluated again')
    now.ms = T0 + 60_000
    resolve({ count: 1 })
    await until(() => h.progressOf('node-feature-rule').length > 1, 'pool ready')
    now.ms = T0 + 60_999
    h.setState('node-feature-rule', 'still more')
    await until(() => h.seen.length > 3, 'evaluated again')
    now.ms = T0 + 61_000
    const out = await p
    expect(h.progressOf('node-feature-rule')).toEqual([
      'node-feature-rule: node-feature-rule ready on 0/1 nodes; node pool still provisioning (0ms)',
      'node-feature-rule: node-feature-rule ready on 0/1 nodes (1m)',
      '(end)'
    ])
    expect(out.steps[0]).toEqual(
      stepAt(
        'node-feature-rule',
        'failure',
        T0,
        T0 + 61_000,
        'unchanged; not ready after 1m1s (step-timeout 1s): node-feature-rule ready on 0/1 nodes'
      )
    )
  })

  it('counts the step timeout of a dependent step from when the steps it depends on settled', async () => {
    const h = harness({ stepTimeoutMs: 10_000 })
    h.node('n1')
    const p = applyPipelined(h.run, [h.step('node-feature-rule'), h.step('nic-cluster-policy')])
    await until(() => h.progressOf('nic-cluster-policy').length > 0, 'waits')
    now.ms = T0 + 8000
    h.node('n1', 'node-feature-rule')
    await until(() => h.progressOf('node-feature-rule').length > 1, 'nfr ready')
    now.ms = T0 + 17_999
    h.setState('nic-cluster-policy', 'still')
    const before = h.seen.length
    await until(() => h.seen.length > before + 1, 'evaluated again')
    now.ms = T0 + 18_000
    const out = await p
    expect(out.steps.map(s => [s.name, s.status, s.detail])).toEqual([
      ['node-feature-rule', 'success', 'unchanged; ready: node-feature-rule ready on 1/1 nodes'],
      [
        'nic-cluster-policy',
        'failure',
        'unchanged; not ready after 18s (step-timeout 10s): nic-cluster-policy ready on 0/1 nodes'
      ]
    ])
    expect(out.steps[1].finishedAt).toBe(iso(T0 + 18_000))
    expect(out.ok).toBe(false)
  })

  it('ignores the fail-fast pods of a step on a node it is blocked on', async () => {
    const h = harness()
    h.node('n1')
    h.node('n2')
    const p = applyPipelined(h.run, [h.step('nic-cluster-policy'), h.step('gpu-operator')])
    await until(() => h.progressOf('gpu-operator').length > 0, 'waits')
    h.crash('nic-cluster-policy', 'n2')
    await until(() => h.progressOf('gpu-operator').some(l => l.includes('blocked on n2')), 'gpu blocked')
    h.crash('gpu-operator', 'n2')
    await turn()
    await turn()
    h.node('n1', 'nic-cluster-policy', 'gpu-operator')
    const out = await p
    expect(out.steps[1].detail).toBe(
      'unchanged; not ready on 1 of 2 nodes: node n2: blocked (nic-cluster-policy failed there) (gpu-operator ready on 1/2 nodes; blocked on n2 (nic-cluster-policy not ready there))'
    )
    expect(out.diagnostics.map(d => d.step)).toEqual(['nic-cluster-policy'])
  })

  it('blames each blocked node on the step that failed there, through the steps in between', async () => {
    const h = harness()
    h.node('n1')
    h.node('n2')
    h.node('n3')
    const p = applyPipelined(h.run, [
      h.step('node-feature-rule'),
      h.step('nic-cluster-policy'),
      h.step('ib-node-config'),
      h.step('rdma-device-plugin')
    ])
    await until(() => h.progressOf('rdma-device-plugin').length > 0, 'waits')
    h.crash('node-feature-rule', 'n3')
    h.crash('ib-node-config', 'n2')
    h.node('n1', 'node-feature-rule', 'nic-cluster-policy', 'ib-node-config', 'rdma-device-plugin')
    h.node('n2', 'node-feature-rule', 'nic-cluster-policy')
    const out = await p
    expect(out.steps.map(s => [s.name, s.status, s.detail])).toEqual([
      [
        'node-feature-rule',
        'failure',
        `unchanged; not ready on 1 of 3 nodes: node n3: ${crashReason('node-feature-rule', 'n3')} (node-feature-rule ready on 2/3 nodes; failing on n3)`
      ],
      [
        'nic-cluster-policy',
        'failure',
        'unchanged; not ready on 1 of 3 nodes: node n3: blocked (node-feature-rule failed there) (nic-cluster-policy ready on 2/3 nodes; blocked on n3 (node-feature-rule not ready there))'
      ],
      [
        'ib-node-config',
        'failure',
        `unchanged; not ready on 2 of 3 nodes: node n2: ${crashReason('ib-node-config', 'n2')}; node n3: blocked (node-feature-rule failed there) (ib-node-config ready on 1/3 nodes; failing on n2; blocked on n3 (node-feature-rule not ready there))`
      ],
      [
        'rdma-device-plugin',
        'failure',
        'unchanged; not ready on 2 of 3 nodes: node n2: blocked (ib-node-config failed there); node n3: blocked (node-feature-rule failed there) (rdma-device-plugin ready on 1/3 nodes; blocked on n2, n3 (ib-node-config, node-feature-rule not ready there))'
      ]
    ])
    expect(out.diagnostics.map(d => d.step)).toEqual(['node-feature-rule', 'ib-node-config'])
  })

  it('fails a cluster-level step at its own step deadline', async () => {
    const h = harness({ scripts: { 'network-operator': { applied: { stepDeadline: T0 } } } })
    h.setState('network-operator', 'pending')
    const out = await applyPipelined(h.run, [h.step('network-operator'), h.step('node-feature-rule')])
    expect(out.steps.map(s => [s.name, s.status, s.detail])).toEqual([
      ['network-operator', 'failure', 'unchanged; not ready after 0ms (step-timeout 25m): state pending'],
      ['node-feature-rule', 'skipped', 'not run: network-operator failed']
    ])
    expect(h.waits).toEqual([{ step: 'network-operator', started: 0, timeoutMs: RUN_TIMEOUT }])
  })

  it('succeeds with disabled steps reported as skipped with their reason', async () => {
    const h = harness()
    h.setState('network-operator', 'ready')
    const out = await applyPipelined(h.run, [
      h.step('network-operator'),
      h.step('gpu-operator', { enabled: false, skipReason: 'gpu-operator input is false' })
    ])
    expect(out).toEqual({
      ok: true,
      diagnostics: [],
      steps: [
        expect.objectContaining({ name: 'network-operator', status: 'success' }),
        skippedAt('gpu-operator', T0, 'gpu-operator input is false')
      ]
    })
    expect(h.events).toEqual(['converge network-operator at 0'])
  })
})
