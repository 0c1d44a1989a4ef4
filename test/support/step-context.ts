// Unit-test helper: what a flow step (src/run/*-step.ts) is given besides the client, without
// running the steps before it: the log backend, replaced by a captureLog for each test and put
// back after it, and a Verification as the verify step leaves it (no checks, the probe's facts).
import { afterEach, beforeEach } from '@jest/globals'
import { setLogBackend, type Log } from '../../src/log/index.js'
import type { Verification } from '../../src/verify/index.js'
import type { NodeFacts } from '../../src/verify/probe-output.js'
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
