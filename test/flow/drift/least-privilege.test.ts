// drift, verify and status (with uninstall --dry-run) with the least privilege the docs give them, against the simulated cluster and
// the helm stand-in: an identity that may get, list and watch what they read but no Secrets (the
// ClusterRole docs/security.md gives), bound through the scenario's kube.access to the user
// credential. The stack is applied with the admin credential;
// then drift with the reader completes, compares the helm releases from their released objects
// (their chart version; the values only helm's Secrets hold are "not compared", naming the
// permission), still finds drift elsewhere, and verify passes on the healthy world (its probe a
// warning naming the rights it needs, until a Role grants them); drift and verify mode run through
// the action's flow with the reader's kubeconfig end as drifted and success.
import { jest } from '@jest/globals'
import { writeFileSync } from 'node:fs'
import { detectDrift } from '../../../src/stack/drift.js'
import { KubeClient } from '../../../src/kube/client.js'
import { PROBE_PERMISSION, runVerification } from '../../../src/verify/index.js'
import { WORK_NAMESPACE } from '../../../src/model/work-labels.js'
import { collectLog, startStackWorld, useHelmStandin, type StackWorld } from '../../support/stack-world.js'
import { applyStack } from '../../../src/stack/index.js'
import { runFlowQuietly } from '../../support/runner-env.js'
import { createHelmReleases } from '../../../src/stack/helm-release.js'
import { readStatus } from '../../../src/status/status.js'
import { previewUninstall } from '../../../src/status/uninstall-preview.js'

jest.setTimeout(240_000)

const READ = ['get', 'list', 'watch']
/**
 * Everything drift and verify read but Secrets: docs/security.md's ClusterRole (the core kinds named
 * one by one, RBAC has no "all but"; the other groups whole).
 */
const READER = [
  {
    user: 'clusterUser',
    rules: [
      {
        apiGroups: [''],
        resources: [
          'pods',
          'pods/log',
          'nodes',
          'namespaces',
          'configmaps',
          'services',
          'endpoints',
          'events',
          'serviceaccounts'
        ],
        verbs: READ
      },
      {
        apiGroups: [
          'apps',
          'apiextensions.k8s.io',
          'nvidia.com',
          'mellanox.com',
          'nfd.k8s-sigs.io',
          'coordination.k8s.io'
        ],
        resources: ['*'],
        verbs: READ
      }
    ]
  }
]

describe('drift and verify with a reader that may not read Secrets', () => {
  let w: StackWorld
  let readerPath: string

  beforeAll(async () => {
    await useHelmStandin()
    w = await startStackWorld({ nodes: 1, scenario: { kube: { access: READER } } })
    readerPath = `${w.kubeconfigPath}-reader`
    writeFileSync(readerPath, w.sim.kubeconfig('user'), { mode: 0o600 })
    const res = await applyStack({
      settings: w.settings(),
      kubeconfigPath: w.kubeconfigPath,
      log: collectLog()
    })
    if (!res.ok) console.log(res.diagnostics.map(d => d.text).join('\n\n'))
    expect(res.ok).toBe(true)
  })
  afterAll(() => w.close())

  /** The action's flow with these inputs and the reader's kubeconfig: its result and its output. */
  async function readerFlow(inputs: Record<string, string>, runId: string) {
    const out: string[] = []
    const r = await runFlowQuietly(w.settings({ kubeconfig: readerPath, ...inputs }, runId), out)
    return { r, out }
  }

  it('the reader may not read helm’s release Secrets', async () => {
    const kube = KubeClient.fromFile(readerPath, { retries: 0 })
    const err = await kube.list('v1', 'Secret', { namespace: 'gpu-operator' }).catch(e => e)
    expect(String(err)).toContain('secrets is forbidden: User "clusterUser" cannot list resource "secrets"')
  })

  it('drift completes: releases compared from their objects, values not compared naming the permission', async () => {
    w.recorder.reset()
    const log = collectLog()
    const items = await detectDrift({ settings: w.settings({}, 'drift-1'), kubeconfigPath: readerPath, log })
    expect(items).toEqual([])
    expect(w.recorder.records.filter(r => r.mutating)).toEqual([])
    for (const [release, ns] of [
      ['network-operator', 'network-operator'],
      ['gpu-operator', 'gpu-operator']
    ])
      expect(log.lines).toContainEqual(
        `warning: ${release}: helm/${release}: chart version compared from its released objects; status and values not compared (reading helm's release Secrets needs get and list on secrets in namespace ${ns})`
      )
  })

  it('status and uninstall --dry-run complete: the releases read from their objects, naming the permission; nothing written', async () => {
    w.recorder.reset()
    const settings = w.settings({}, 'status-1')
    const kube = KubeClient.fromFile(readerPath, { retries: 0 })
    const helm = createHelmReleases(settings, readerPath, collectLog())
    const readers = { settings, kube, helmStatus: helm.status, cluster: { context: 'reader' } }
    const status = await readStatus(readers)
    expect(
      status.releases.map(r => [r.release, r.installed, r.chart, r.version, r.status, r.source, r.owned])
    ).toEqual([
      ['gpu-operator', true, 'gpu-operator', 'v26.7.0', 'unknown', 'objects', false],
      [
        'network-operator',
        true,
        'network-operator',
        expect.stringMatching(/^v\d/),
        'unknown',
        'objects',
        false
      ]
    ])
    expect(status.releases[0].why).toMatch(
      /^recorded by run .*; not proven \(helm's release Secrets not readable\)$/
    )
    expect(status.notes).toContain(
      "gpu-operator -n gpu-operator: read from its objects' helm annotations; status and first deployment not read (reading helm's release Secrets needs get and list on secrets in namespace gpu-operator)"
    )
    expect(status.record?.entries).toBeGreaterThan(0)
    const preview = await previewUninstall(readers)
    expect(preview.parts.find(p => p.name === 'gpu-operator')?.keep).toEqual([
      {
        what: 'helm release gpu-operator -n gpu-operator',
        why: "not read: reading helm's release Secrets needs get and list on secrets in namespace gpu-operator; uninstall needs it"
      }
    ])
    expect(w.recorder.records.filter(r => r.mutating)).toEqual([])
  })

  it('drift still finds a release on another chart version, read from its objects', async () => {
    const items = await detectDrift({
      settings: w.settings({ 'gpu-operator-version': 'v26.3.3' }, 'drift-2'),
      kubeconfigPath: readerPath,
      log: collectLog()
    })
    expect(items.map(i => [i.component, i.field, i.desired, i.actual])).toEqual([
      ['gpu-operator', 'helm/gpu-operator chart', 'v26.3.3', 'v26.7.0']
    ])
  })

  it('drift still reports drift elsewhere: a device plugin config changed behind the action’s back', async () => {
    const admin = KubeClient.fromFile(w.kubeconfigPath, { retries: 0, fieldManager: 'kubectl' })
    await admin.applyManifest(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'rdma-devices', namespace: 'kube-system' },
        data: { 'config.json': '{"periodicUpdateInterval":300,"configList":[]}' }
      },
      { force: true }
    )
    w.recorder.reset()
    const items = await detectDrift({
      settings: w.settings({}, 'drift-3'),
      kubeconfigPath: readerPath,
      log: collectLog()
    })
    expect(items.map(i => [i.component, i.field])).toEqual([
      ['rdma-device-plugin', 'configmap/rdma-devices data[config.json]']
    ])
    expect(items[0].fixableByApply).toBe(true)
    expect(items[0].hint).toContain(
      'compared without a dry-run apply, which needs patch on configmaps in namespace kube-system'
    )
    expect(w.recorder.records.filter(r => r.mutating)).toEqual([])
  })

  it('drift mode as a whole completes: drifted, the releases’ warnings in the log, nothing written', async () => {
    w.recorder.reset()
    // No subscription-id: the cluster alone, no Azure sign-in.
    const { r, out } = await readerFlow({ mode: 'drift', 'subscription-id': '' }, 'drift-flow')
    expect(r.report.result).toBe('drifted')
    expect(r.report.steps.map(s => [s.name, s.status])).toEqual([
      ['credentials', 'success'],
      ['drift', 'warning'],
      ['verify', 'success']
    ])
    expect(r.report.drift?.map(d => d.field)).toEqual(['configmap/rdma-devices data[config.json]'])
    expect(out.join('')).toContain(
      "::warning::gpu-operator: helm/gpu-operator: chart version compared from its released objects; status and values not compared (reading helm's release Secrets needs get and list on secrets in namespace gpu-operator)"
    )
    expect(w.recorder.records.filter(x => x.mutating)).toEqual([])
  })

  it('verify passes on the healthy world: every read-only check, the probe named as needing its rights', async () => {
    const log = collectLog()
    w.recorder.reset()
    const v = await runVerification({
      settings: w.settings({}, 'verify-1'),
      kube: KubeClient.fromFile(readerPath, { retries: 0 }),
      mode: 'verify',
      log
    })
    const read = v.checks.filter(c => c.name !== 'node-probe')
    expect(read.map(c => c.name)).toEqual([
      'nodes-ready',
      'ofed-driver',
      'ib-node-config',
      'rdma-device-plugin',
      'gpu-operator'
    ])
    for (const c of read) expect({ name: c.name, status: c.status }).toEqual({ name: c.name, status: 'pass' })
    const probe = v.checks.find(c => c.name === 'node-probe')!
    expect(probe.status).toBe('warn')
    expect(probe.detail).toContain('not run: the identity may not update configmaps in namespace kube-system')
    expect(probe.detail).toContain(PROBE_PERMISSION)
    expect(v.checks.some(c => c.status === 'fail')).toBe(false)
    // Refused, so nothing was written.
    expect(w.recorder.records.filter(r => r.mutating && r.status !== 403)).toEqual([])
  })

  it('verify mode as a whole succeeds: the probe a warning, the benchmark not started', async () => {
    const { r } = await readerFlow({ mode: 'verify', benchmark: 'true' }, 'verify-flow')
    expect(r.report.result).toBe('success')
    expect(r.report.steps.map(s => [s.name, s.status])).toEqual([
      ['credentials', 'success'],
      ['verify', 'success'],
      ['benchmark', 'skipped']
    ])
    expect(r.report.checks.find(c => c.name === 'node-probe')?.status).toBe('warn')
  })

  it('verify probes the nodes once the identity also has the probe’s rights', async () => {
    // The probe's own rights, granted on top of the reader's (a Role in the probe namespace).
    const admin = KubeClient.fromFile(w.kubeconfigPath, { retries: 0 })
    await admin.applyManifest({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: WORK_NAMESPACE } })
    await admin.applyManifest({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'probe', namespace: WORK_NAMESPACE },
      rules: [{ apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['create', 'delete', 'list'] }]
    })
    await admin.applyManifest({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'probe', namespace: WORK_NAMESPACE },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'probe' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'clusterUser' }]
    })
    const v = await runVerification({
      settings: w.settings({}, 'verify-2'),
      kube: KubeClient.fromFile(readerPath, { retries: 0 }),
      mode: 'verify',
      log: collectLog()
    })
    for (const c of v.checks)
      expect({ name: c.name, status: c.status }).toEqual({ name: c.name, status: 'pass' })
  })
})
