// The CLI's read-only looks at a live cluster (child processes of the shipped dist/cli.js, with only
// $KUBECONFIG, as a kubectl user runs them): `status` before and after a real apply (the releases with
// chart, version, status and whose they are; the pool's nodes; the Lease's holder, live or expired;
// the last run, which a later write of the ownership record keeps), `uninstall --dry-run` listing what
// it would remove and keep (an object made again by hand is kept) — what uninstall then removes and
// keeps, and records as the last run — each look with not one mutating request,
// text within 80 columns and JSON numbers as numbers; an unreachable server exits 1 naming the context
// and the fix.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { KubeClient } from '../../../src/kube/client.js'
import { microTime } from '../../../src/stack/lease.js'
import { readLastRun } from '../../../src/stack/last-run.js'
import { OwnershipRecord } from '../../../src/stack/ownership.js'
import type { FlowResult } from '../../../src/run/flow.js'
import type { World } from '../../../sim/world.js'
import { bundlePath } from '../../support/dist.js'
import * as runner from '../../support/runner-env.js'

jest.setTimeout(600_000)

let world: World
const flowLog: string[] = []

/** Runs the action's flow in-process with exactly these inputs; its workflow commands collected. */
const flow = (inputs: Record<string, string>): Promise<FlowResult> =>
  runner.runWithInputs(world, inputs, 'st', flowLog)

/** The CLI with $KUBECONFIG only (and the world's helm, pinned), as a kubectl user runs it. */
function cli(
  args: string[],
  kubeconfig = world.adminKubeconfigPath
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = Object.fromEntries(
    Object.entries({
      ...process.env,
      KUBECONFIG: kubeconfig,
      RUNNER_TEMP: undefined,
      HOME: mkdtempSync(path.join(tmpdir(), 'st-home-'))
    }).filter((e): e is [string, string] => e[1] !== undefined)
  )
  const argv = [
    bundlePath('cli'),
    ...args,
    '--node-pool',
    runner.RUN_POOL,
    '--helm-sha256',
    world.inputs()['helm-sha256']
  ]
  return new Promise(resolve =>
    execFile(process.execPath, argv, { env, timeout: 120_000 }, (e, stdout, stderr) =>
      resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, stdout, stderr })
    )
  )
}

const mutating = () => world.recorder.records.filter(r => r.mutating).map(r => `${r.method} ${r.path}`)
const widest = (text: string) => Math.max(...text.split('\n').map(l => l.length))
const admin = () => KubeClient.fromFile(world.adminKubeconfigPath, { retries: 1 })

beforeAll(async () => {
  world = await runner.runnerWorld(
    'st-runner',
    { kube: { timeScale: 0.001 }, azure: { tokens: { oidcLifetime: '1000h' } } },
    { azCommand: [process.execPath, bundlePath('cli'), '__az'] }
  )
})

afterAll(() => runner.leaveWorld(world))

describe('status', () => {
  it('before any run: nothing installed, no Lease, no run recorded; exit 0 and no write', async () => {
    world.recorder.reset()
    const r = await cli(['status', '-o', 'json'])
    expect({ code: r.code, stderr: r.code ? r.stderr : '' }).toEqual({ code: 0, stderr: '' })
    const doc = JSON.parse(r.stdout)
    expect(doc.record).toBeNull()
    expect(doc.lease).toBeNull()
    expect(doc.lastRun).toBeNull()
    expect(
      doc.releases.map((x: { release: string; installed: boolean }) => [x.release, x.installed])
    ).toEqual([
      ['gpu-operator', false],
      ['network-operator', false]
    ])
    expect(mutating()).toEqual([])
    const text = await cli(['status'])
    expect(text.code).toBe(0)
    expect(text.stdout).toContain('Last run: no run recorded')
  })

  it('after apply: the releases, the pool, the last run; JSON numbers are numbers, text fits 80 columns', async () => {
    const applied = await flow({ ...runner.secretAuthInputs(world), mode: 'apply' })
    expect(applied.exitCode).toBe(0)
    world.recorder.reset()
    const r = await cli(['status', '-o', 'json'])
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    const gpu = doc.releases.find((x: { release: string }) => x.release === 'gpu-operator')
    expect(gpu).toMatchObject({
      installed: true,
      chart: 'gpu-operator',
      status: 'deployed',
      owned: true,
      source: 'helm'
    })
    expect(gpu.version).toMatch(/^v\d+\.\d+\.\d+$/)
    expect(typeof gpu.revision).toBe('number')
    expect(gpu.why).toMatch(/^installed by run st-/)
    expect(doc.pools).toEqual([{ name: runner.RUN_POOL, selected: true, recorded: true, nodes: 2, ready: 2 }])
    expect(doc.record.entries).toBeGreaterThan(5)
    expect(doc.lastRun).toMatchObject({
      mode: 'apply',
      result: 'success',
      runId: expect.stringMatching(/^st-/)
    })
    expect(doc.lastRun.version).toBe(applied.report.version)
    expect(mutating()).toEqual([])

    const text = await cli(['status'])
    expect(text.code).toBe(0)
    expect(widest(text.stdout)).toBeLessThanOrEqual(80)
    expect(text.stdout).toContain('rdma: 2 nodes, 2 ready (selected, created by the action)')
    expect(text.stdout).toMatch(/Last run that changed the cluster: apply success/)
  })

  it('the Lease: its holder and times, live while renewed, expired once not renewed for its duration', async () => {
    const kube = admin()
    const lease = (renewed: number) => ({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'aks-rdma-action', namespace: 'kube-system' },
      spec: {
        holderIdentity: 'run-of-someone-else',
        leaseDurationSeconds: 60,
        acquireTime: microTime(renewed - 5_000),
        renewTime: microTime(renewed)
      }
    })
    await kube.applyManifest(lease(Date.now()))
    let doc = JSON.parse((await cli(['status', '-o', 'json'])).stdout)
    expect(doc.lease).toMatchObject({ holder: 'run-of-someone-else', durationSeconds: 60, expired: false })
    expect(typeof doc.lease.secondsSinceRenewal).toBe('number')
    await kube.applyManifest(lease(Date.now() - 10 * 60_000))
    doc = JSON.parse((await cli(['status', '-o', 'json'])).stdout)
    expect(doc.lease).toMatchObject({ holder: 'run-of-someone-else', expired: true })
    expect(doc.lease.secondsSinceRenewal).toBeGreaterThanOrEqual(600)
    await kube.deleteObject({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      namespace: 'kube-system',
      name: 'aks-rdma-action'
    })
  })

  it('the last run stays when the ownership record is written again', async () => {
    const kube = admin()
    const before = await readLastRun(kube)
    expect(before).toBeDefined()
    const record = OwnershipRecord.of(kube, 'st-other')
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'st-probe' }
    await record.pending(ref)
    await record.forget(ref)
    expect(await readLastRun(kube)).toEqual(before)
  })

  it('an unreachable API server: exit 1 naming the context, the server and the fix', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'st-kc-'))
    const file = path.join(dir, 'kubeconfig')
    writeFileSync(
      file,
      readFileSync(world.adminKubeconfigPath, 'utf8').replace(
        /server: https:\/\/127\.0\.0\.1:\d+/,
        'server: https://127.0.0.1:9'
      ),
      { mode: 0o600 }
    )
    const r = await cli(['status'], file)
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(
      /cannot read the cluster of context \S+ \(cluster \S+, server https:\/\/127\.0\.0\.1:9\)/
    )
    expect(r.stderr).toContain('Fix: check that this context is the cluster you mean')
  })
})

describe('uninstall --dry-run', () => {
  it('lists what uninstall would remove and keep, and why, with not one write', async () => {
    // An object of the stack deleted and made again by hand: another uid, so not the action's.
    const kube = admin()
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'kube-system', name: 'rdma-devices' }
    const live = (await kube.get(ref))!
    await kube.deleteObject(ref)
    await kube.applyManifest({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: ref.name, namespace: ref.namespace },
      data: live.data
    })
    world.recorder.reset()
    const r = await cli(['uninstall', '--dry-run', '-o', 'json'])
    expect({ code: r.code, stderr: r.code ? r.stderr : '' }).toEqual({ code: 0, stderr: '' })
    expect(mutating()).toEqual([])
    const doc = JSON.parse(r.stdout)
    expect(doc).toMatchObject({ mode: 'uninstall', dryRun: true })
    const part = (name: string) => doc.parts.find((p: { name: string }) => p.name === name)
    expect(part('gpu-operator').remove.map((x: { what: string }) => x.what)).toEqual([
      expect.stringMatching(/^helm release gpu-operator -n gpu-operator \(gpu-operator v/),
      'namespace/gpu-operator'
    ])
    expect(part('gpu-operator').remove[0].why).toMatch(/^installed by run st-/)
    expect(part('gpu-operator').remove[1].why).toMatch(/^recorded uid /)
    const dp = part('rdma-device-plugin')
    expect(dp.remove.map((x: { what: string }) => x.what)).toEqual([
      'daemonset/rdma-shared-dp-ds -n kube-system'
    ])
    expect(dp.keep).toEqual([
      {
        what: 'configmap/rdma-devices -n kube-system',
        why: expect.stringMatching(/is not the recorded .*someone else made it again/)
      }
    ])
    expect(typeof doc.removeCount).toBe('number')
    expect(doc.keepCount).toBe(1)

    const text = await cli(['uninstall', '--dry-run'])
    expect(text.code).toBe(0)
    expect(mutating()).toEqual([])
    expect(widest(text.stdout)).toBeLessThanOrEqual(80)
    expect(text.stdout).toContain('keep configmap/rdma-devices -n kube-system')
    expect(text.stdout).toContain('remove namespace/gpu-operator')

    // uninstall then removes exactly what the preview listed, and keeps what it kept.
    const removed = await flow({ ...runner.secretAuthInputs(world), mode: 'uninstall' })
    expect(removed.exitCode).toBe(0)
    const details = removed.report.steps.map(x => x.detail ?? '').join('; ')
    for (const p of doc.parts as Array<{ remove: Array<{ what: string }>; keep: Array<{ what: string }> }>) {
      for (const r of p.remove) {
        const release = /^helm release (\S+) -n \S+ \(([^)]+)\)$/.exec(r.what)
        expect({
          what: r.what,
          removed: details.includes(
            release ? `helm release ${release[1]} (${release[2]}) uninstalled` : `${r.what} deleted`
          )
        }).toEqual({ what: r.what, removed: true })
      }
      for (const k of p.keep) expect(details).toContain(`${k.what} kept`)
    }
    expect(await admin().get(ref)).toBeDefined()
    // The run is recorded in what is left of the record (the kept object's entry).
    const after = JSON.parse((await cli(['status', '-o', 'json'])).stdout)
    expect(after.lastRun).toMatchObject({ mode: 'uninstall', result: 'success' })
    expect(after.releases.every((x: { installed: boolean }) => !x.installed)).toBe(true)
  })
})
