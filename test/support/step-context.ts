// Unit-test helper: what a flow step (src/run/*-step.ts) is given besides the client, without
// running the steps before it: the log backend, replaced by a captureLog for each test and put
// back after it, a Verification as the verify step leaves it (no checks, the probe's facts), the
// probed facts of a usable node, and a client that must not be called.
import { afterEach, beforeEach, expect } from '@jest/globals'
import { setLogBackend, type Log } from '../../src/log/index.js'
import type { Report } from '../../src/report/report.js'
import type { Verification } from '../../src/verify/index.js'
import type { KubeClient } from '../../src/kube/client.js'
import { emptyFacts, type NodeFacts } from '../../src/verify/probe-output.js'
import { captureLog, type CapturedLog } from './capture-log.js'

/** Registers the hooks: before each test a new captured log (given to `use`) is
 * the backend, so nothing reaches the runner's log. */
export function captureLogBackend(use: (log: CapturedLog) => void = () => undefined): void {
  let previous: Log | undefined
  beforeEach(() => {
    const log = captureLog()
    use(log)
    previous = setLogBackend(log)
  })
  afterEach(() => {
    if (previous) setLogBackend(previous)
  })
}

/** A verification with no checks and, when given, the probe's facts (none: drift mode). */
export function verificationOf(facts?: Map<string, NodeFacts> | NodeFacts[]): Verification {
  return {
    checks: [],
    state: {} as Verification['state'],
    nodes: [],
    ...(facts ? { facts: facts instanceof Map ? facts : new Map(facts.map(f => [f.node, f])) } : {})
  }
}

/** A Kubernetes client that fails every call, and the names of the calls it was asked for: the
 * client of a step that must not reach the cluster. A new pair before each test. */
export function refusingKube(): { readonly kube: KubeClient; readonly calls: string[] } {
  const state = { kube: undefined as unknown as KubeClient, calls: [] as string[] }
  beforeEach(() => {
    const calls: string[] = []
    state.calls = calls
    state.kube = new Proxy(
      {},
      {
        get: (_t, name) => {
          calls.push(String(name))
          return () => {
            throw new Error(`unexpected kube.${String(name)}`)
          }
        }
      }
    ) as unknown as KubeClient
  })
  return {
    get kube() {
      return state.kube
    },
    get calls() {
      return state.calls
    }
  }
}

/** Facts of a node the probe read: no error, one active 400 Gb/s port (mlx5_ib0), `gpus` GPUs. */
export function activePortNode(node: string, gpus = 0): NodeFacts {
  return {
    ...emptyFacts(node, ''),
    error: null,
    activeDevices: ['mlx5_ib0'],
    rateGbps: { mlx5_ib0: 400 },
    gpus: Array.from({ length: gpus }, (_, i) => ({ cudaIndex: i, pciAddress: `0000:0${i}:00.0` })) as never
  }
}

/** The report holds the one step the test ran, and it matches `step`. */
export function expectOnlyStep(report: Report, step: Partial<Report['steps'][number]>): void {
  expect(report.steps).toHaveLength(1)
  expect(report.steps[0]).toMatchObject(step)
}
