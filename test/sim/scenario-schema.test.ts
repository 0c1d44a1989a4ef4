// Scenario files are checked before any world starts: YAML errors, wrong types, out-of-range
// values, unknown keys and node/NIC indexes outside the pool come back as `scenario FILE: key: …`
// lines; the CLI's simulate and sim up exit 2 with them, no stack trace, no world folder, no report.
// A scenario that is a FIFO or a device, too large, or has a duration past a timer's reach is
// refused the same way, at once; nothing of a file that does not parse is repeated.
import { describe, expect, it } from '@jest/globals'
import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { scenarioFileProblems } from '../../sim/commands.js'
import { DEFAULT_SCENARIO, loadScenario, ScenarioError } from '../../sim/scenario.js'
import { scenarioProblems } from '../../sim/scenario-schema.js'
import { bundlePath } from '../support/dist.js'

const dir = mkdtempSync(path.join(tmpdir(), 'scenario-schema-'))
let n = 0
function file(text: string): string {
  const f = path.join(dir, `s${++n}.yaml`)
  writeFileSync(f, text)
  return f
}

function problemsOf(text: string): string[] {
  const f = file(text)
  try {
    loadScenario(f)
  } catch (e) {
    expect(e).toBeInstanceOf(ScenarioError)
    return (e as ScenarioError).problems
  }
  return []
}

describe('scenario schema', () => {
  it('accepts the default scenario and every documented key', () => {
    expect(scenarioProblems(DEFAULT_SCENARIO)).toEqual([])
    expect(
      problemsOf(`
azure:
  feature: { state: Pending, pollsUntilRegistered: 1, pendingPolls: 2 }
  cluster: { exists: true, aad: true, localAccounts: false, kubernetesVersion: "1.35", location: westus }
  existingPools:
    - { name: rdma, vmSize: Standard_ND96isr_H100_v5, count: 2, osSKU: Ubuntu2204, gpuDriver: None, tags: { a: b } }
  poolProvisioning: { polls: 0, result: Failed, errorCode: X, errorMessage: Y, duration: 600s, bootDelay: 2m }
  tokens: { oidcLifetime: 60s, accessTokenLifetime: 600, aksAccessTokenLifetime: 20m }
  faults:
    - { match: "PUT */agentPools/*", status: 429, retryAfter: 2, times: 2 }
    - { match: "*", reset: true, times: 1 }
kube:
  timeScale: 0.01
  delays: { mofed: 300s, gpuDriver: 240s, default: 5s }
  faults:
    - { pod: rdma-shared-dp-ds, kind: CrashLoopBackOff }
    - { watch: disconnect, every: 20s }
    - { api: "PATCH *", status: 500, times: 2 }
  mutatePods:
    - { image: vllm-runtime, dropResources: [rdma/hca_shared_devices_a], memoryLimit: 64Mi }
nodes:
  ibLinkGbps: 200
  degraded: [{ index: 1, gbps: 180 }, { index: 0, nic: 3, gbps: 100 }]
  noInfiniband: [1]
  ofedFails: [0]
  joinSpread: 60s
  containerMemlockKiB: 64
  peermemFails: [0, 1]
  nvlinkDegraded: [1]
  dmabuf: false
dynamo:
  ucx: { cuda: false, verbs: true }
setup:
  apply: true
  mutate:
    - { azure: agentPool, name: rdma, set: { count: 3 } }
    - { apiVersion: apps/v1, kind: DaemonSet, namespace: kube-system, name: ib-node-config, mergePatch: { spec: {} } }
`)
    ).toEqual([])
  })

  it('the failures the issue found: unclosed YAML, a string for a list, a word for a number', () => {
    const yaml = problemsOf('azure: [unclosed')
    expect(yaml).toHaveLength(1)
    expect(yaml[0]).toMatch(/^not valid YAML \(line 1, column \d+\): [A-Z_]+$/)
    expect(problemsOf('kube:\n  faults: "boom"')).toEqual(['kube.faults: must be a list (got "boom")'])
    expect(problemsOf('kube:\n  timeScale: "fast"')).toEqual([
      'kube.timeScale: must be a number (got "fast")'
    ])
  })

  it('hostile files: a FIFO, a device, an oversized file, a huge duration; nothing of the text repeated', () => {
    const fifo = path.join(dir, 'scenario.fifo')
    execFileSync('mkfifo', [fifo])
    const refused = (f: string) => {
      try {
        loadScenario(f)
      } catch (e) {
        return (e as ScenarioError).problems
      }
      return []
    }
    expect(refused(fifo)).toEqual(['not a regular file (a FIFO)'])
    expect(refused('/dev/zero')).toEqual(['not a regular file (a character device)'])
    expect(refused(file('#'.repeat(1024 * 1024 + 1)))).toEqual(['1048577 bytes; at most 1 MiB'])
    expect(problemsOf('kube:\n  delays: { mofed: 99999999999999h }')).toEqual([
      'kube.delays.mofed: a duration of at most 10 years (e.g. 90s, 5m, 1h30m) or a number of seconds (got "99999999999999h")'
    ])
    const secret = problemsOf('azure:\n  clientSecret: "s3cret-value\n  tenantId: [x')
    expect(secret).toHaveLength(1)
    expect(secret[0]).not.toContain('s3cret')
  })

  it('names every bad key: unknown keys, ranges, enums, durations, required fields', () => {
    const p = problemsOf(`
kube:
  timescale: 0.1
  timeScale: 0
azure:
  feature: { state: Approved }
  tokens: { accessTokenLifetime: "10 minutes" }
  existingPools: [{ name: RDMA, vmSize: x, count: 5000 }]
  faults: [{ status: 429 }]
nodes:
  degraded: [{ index: -1, gbps: 100, foo: 1 }]
surprise: true
`)
    expect(p).toEqual(
      expect.arrayContaining([
        'kube.timescale: unknown key',
        'kube.timeScale: must be > 0 (got 0)',
        'azure.feature.state: one of "Registered", "NotRegistered", "Pending" (got "Approved")',
        'azure.tokens.accessTokenLifetime: a duration of at most 10 years (e.g. 90s, 5m, 1h30m) or a number of seconds (got "10 minutes")',
        'azure.existingPools[0].count: must be <= 1000 (got 5000)',
        'azure.existingPools[0].name: must match pattern "^[a-z][a-z0-9]{0,11}$" (got "RDMA")',
        'azure.faults[0].match: required',
        'nodes.degraded[0].foo: unknown key',
        'nodes.degraded[0].index: must be >= 0 (got -1)',
        'surprise: unknown key'
      ])
    )
    expect(p).toHaveLength(10)
  })

  it('the transport check’s keys: the image’s UCX build, the nodes’ memlock and peermem, pod policies', () => {
    expect(
      problemsOf(`
dynamo:
  ucx: { cuda: "no", rdma: true }
nodes:
  containerMemlockKiB: -1
  peermemFails: [a]
  dmabuf: 1
kube:
  mutatePods:
    - { dropResources: [gpu], memoryLimit: lots }
`)
    ).toEqual(
      expect.arrayContaining([
        'dynamo.ucx.cuda: must be a boolean (got "no")',
        'dynamo.ucx.rdma: unknown key',
        'nodes.containerMemlockKiB: must be >= 0 (got -1)',
        'nodes.peermemFails[0]: must be a integer (got "a")',
        'nodes.dmabuf: must be a boolean (got 1)',
        'kube.mutatePods[0].image: required',
        'kube.mutatePods[0].dropResources[0]: must match pattern "^[A-Za-z0-9.-]+/[A-Za-z0-9._-]+$" (got "gpu")',
        'kube.mutatePods[0].memoryLimit: must match pattern "^\\d+(\\.\\d+)?(Ki|Mi|Gi|Ti|k|M|G|T)?$" (got "lots")'
      ])
    )
    expect(scenarioFileProblems(file('nodes:\n  peermemFails: [2]'), {})[0]).toMatch(
      /nodes\.peermemFails\[0\]: node index 2 is outside the pool \(RDMA nodes 0 to 1\)$/
    )
    expect(scenarioFileProblems(file('nodes:\n  nvlinkDegraded: [5]'), {})[0]).toMatch(
      /nodes\.nvlinkDegraded\[0\]: node index 5 is outside the pool \(RDMA nodes 0 to 1\)$/
    )
  })

  it('a list or a scalar where a mapping belongs', () => {
    expect(problemsOf('- a\n- b')).toEqual(['must be a YAML mapping (key: value lines)'])
    expect(problemsOf('nodes: 3')).toEqual(['nodes: must be a mapping (got 3)'])
  })

  it('programmatic overrides are checked too', () => {
    expect(() => loadScenario(undefined, { kube: { timeScale: 'fast' } })).toThrow(
      'scenario overrides: kube.timeScale: must be a number (got "fast")'
    )
  })

  it('node and NIC indexes must fall inside the RDMA nodes simulate will create', () => {
    const f = file(
      'nodes:\n  degraded: [{ index: 2, nic: 8, gbps: 100 }]\n  noInfiniband: [1]\n  ofedFails: [5]'
    )
    expect(scenarioFileProblems(f, {})).toEqual([
      `scenario ${f}: nodes.ofedFails[0]: node index 5 is outside the pool (RDMA nodes 0 to 1)`,
      `scenario ${f}: nodes.degraded[0].index: node index 2 is outside the pool (RDMA nodes 0 to 1)`,
      `scenario ${f}: nodes.degraded[0].nic: NIC index 8 is outside the node (InfiniBand NICs 0 to 7)`
    ])
    // A bigger pool holds them, except the NIC (an H100 node has 8).
    expect(scenarioFileProblems(f, { 'node-count': '6' })).toEqual([
      `scenario ${f}: nodes.degraded[0].nic: NIC index 8 is outside the node (InfiniBand NICs 0 to 7)`
    ])
    // An existing RDMA pool's nodes count, and its size decides the NICs.
    const g = file(
      'azure:\n  existingPools: [{ name: old, vmSize: Standard_ND40rs_v2, count: 4 }]\nnodes:\n  ofedFails: [5]\n  degraded: [{ index: 0, nic: 1, gbps: 10 }]'
    )
    expect(scenarioFileProblems(g, {})).toEqual([
      `scenario ${g}: nodes.degraded[0].nic: NIC index 1 is outside the node (InfiniBand NICs 0 to 0)`
    ])
  })
})

describe('the CLI refuses a bad scenario before any world starts', () => {
  const run = promisify(execFile)
  async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string; tmp: string }> {
    const bundle = bundlePath('cli')
    const tmp = mkdtempSync(path.join(tmpdir(), 'scenario-cli-'))
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('INPUT_') && !k.startsWith('GITHUB_'))
    )
    try {
      const r = await run(process.execPath, [bundle, ...args], {
        env: { ...env, TMPDIR: tmp },
        timeout: 30_000
      })
      return { code: 0, stdout: r.stdout, stderr: r.stderr, tmp }
    } catch (e: any) {
      return { code: e.code, stdout: e.stdout, stderr: e.stderr, tmp }
    }
  }

  it('simulate: exit 2, the file and each key named, no stack, no world folder, no report', async () => {
    const f = file('kube:\n  faults: "boom"\n  timeScale: "fast"\nnodes:\n  ofedFails: [7]\n')
    const report = path.join(dir, 'report.json')
    const r = await cli(['simulate', '--scenario', f, '--report', report])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`simulate: scenario ${f}: kube.faults: must be a list (got "boom")`)
    expect(r.stderr).toContain(`simulate: scenario ${f}: kube.timeScale: must be a number (got "fast")`)
    expect(r.stderr).not.toMatch(/\n\s+at /)
    expect(r.stderr).not.toMatch(/TypeError|RangeError|YAMLParseError/)
    expect(existsSync(report)).toBe(false)
    expect(readdirSync(r.tmp)).toEqual([])
  })

  it('simulate: a node index outside the pool', async () => {
    const f = file('nodes:\n  ofedFails: [7]\n')
    const r = await cli(['simulate', '--scenario', f, '--node-count', '3'])
    expect(r.code).toBe(2)
    expect(r.stderr.trim()).toBe(
      `simulate: scenario ${f}: nodes.ofedFails[0]: node index 7 is outside the pool (RDMA nodes 0 to 2)`
    )
    expect(readdirSync(r.tmp)).toEqual([])
  })

  it('sim up: exit 2 on unparsable YAML, nothing written', async () => {
    const f = file('azure: [unclosed')
    const worldDir = path.join(dir, 'world')
    const r = await cli(['sim', 'up', '--scenario', f, '--dir', worldDir])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      new RegExp(
        `^sim up: scenario ${f.replace(/[.]/g, '\\.')}: not valid YAML \\(line 1, column \\d+\\): [A-Z_]+$`,
        'm'
      )
    )
    expect(r.stderr).not.toMatch(/\n\s+at /)
    expect(existsSync(worldDir)).toBe(false)
  })
})
