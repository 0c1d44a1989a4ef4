// What the action owns on a shared cluster (docs/security.md, "What the action owns"), end to end
// against the simulated cluster and the helm stand-in (helm run by hand as a user would): a label
// never makes anything the action's — a ConfigMap with another created-by value and a pre-made
// namespace carrying the action's labels (with a Secret of the user's inside) survive uninstall; a
// same-named release of another chart makes apply fail naming it and stays untouched; a same-chart
// release installed by hand is refused by apply (naming adopt-releases) and kept by uninstall, and
// taken over only with adopt-releases, which the step says; a namespace the action found keeps its
// labels. What held before still holds: a converged re-run writes nothing, uninstall removes what
// the action created and the record with it, and a second uninstall finds nothing.
import { jest } from '@jest/globals'
import { helmStandin } from '../../../sim/helm/index.js'
import { detectDrift } from '../../../src/stack/drift.js'
import { KubeClient } from '../../../src/kube/client.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { applyStack } from '../../../src/stack/index.js'
import { OWNERSHIP_RECORD, parseEntries, RECORD_KEY } from '../../../src/stack/ownership.js'
import { uninstallStack } from '../../../src/stack/uninstall.js'
import { workNamespaceManifest } from '../../../src/verify/workspace.js'
import { collectLog, startStackWorld, useHelmStandin, type StackWorld } from '../../support/stack-world.js'

jest.setTimeout(300_000)

const POD_SECURITY = 'pod-security.kubernetes.io/enforce'
const GPU_VERSION = 'v26.7.0'

describe('what the action owns on a shared cluster', () => {
  let w: StackWorld
  let user: KubeClient

  /** helm as a user runs it by hand, on the same cluster. */
  const helm = async (...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    let stdout = ''
    let stderr = ''
    const code = await helmStandin(
      argv,
      { ...process.env, KUBECONFIG: w.kubeconfigPath },
      { stdout: s => (stdout += s), stderr: s => (stderr += s) }
    )
    return { code, stdout, stderr }
  }
  const releaseOf = async (name: string, ns: string) => {
    const r = await helm('status', name, '-n', ns, '-o', 'json')
    if (r.code !== 0) return undefined
    const rel = JSON.parse(r.stdout) as {
      version: number
      chart: { metadata: { name: string; version: string } }
    }
    return { revision: rel.version, chart: `${rel.chart.metadata.name} ${rel.chart.metadata.version}` }
  }
  const get = (group: string, plural: string, ns: string | undefined, name: string) =>
    w.sim.store.tryGet(w.sim.store.type(group, plural)!, ns, name)
  const record = () => {
    const cm = get('', 'configmaps', OWNERSHIP_RECORD.namespace, OWNERSHIP_RECORD.name)
    return cm ? parseEntries(cm.data?.[RECORD_KEY]) : undefined
  }
  const apply = (runId: string, overrides: Record<string, string> = {}) =>
    applyStack({
      settings: w.settings(overrides, runId),
      kubeconfigPath: w.kubeconfigPath,
      log: collectLog()
    })
  const uninstall = (runId: string, overrides: Record<string, string> = {}) =>
    uninstallStack({
      settings: w.settings(overrides, runId),
      kubeconfigPath: w.kubeconfigPath,
      log: collectLog()
    })
  /** The GPU Operator chart installed by hand with helm as release `name` in `ns`. */
  const handInstallGpuOperator = async (name: string, ns: string, ...flags: string[]) => {
    const hand = await helm(
      'upgrade',
      '--install',
      name,
      'nvidia/gpu-operator',
      '--version',
      GPU_VERSION,
      '-n',
      ns,
      ...flags
    )
    expect([hand.code, hand.stderr]).toEqual([0, ''])
  }
  const detailOf = (steps: Array<{ name: string; detail?: string }>, name: string): string =>
    steps.find(s => s.name === name)?.detail ?? ''

  beforeAll(async () => {
    await useHelmStandin()
    w = await startStackWorld({ nodes: 2 })
    user = KubeClient.fromFile(w.kubeconfigPath, { retries: 0, fieldManager: 'kubectl-client-side-apply' })
    expect((await helm('repo', 'add', 'nvidia', 'https://helm.ngc.nvidia.com/nvidia')).code).toBe(0)
  })
  afterAll(() => w.close())

  it('uninstall keeps a ConfigMap with a foreign created-by value and a pre-made namespace with the action’s labels', async () => {
    const foreign: KubeObject[] = [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'rdma-devices',
          namespace: 'kube-system',
          labels: { 'aks-rdma-action/created-by': 'someone-else', 'aks-rdma-action/managed': 'true' }
        },
        data: { note: 'the platform team’s' }
      },
      // The action's own work-namespace labels, and a created-by label, on a namespace a user made.
      {
        ...workNamespaceManifest(),
        metadata: {
          ...workNamespaceManifest().metadata,
          labels: { ...workNamespaceManifest().metadata.labels, 'aks-rdma-action/created-by': 'run-1' }
        }
      },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'team-token', namespace: 'aks-rdma-verify' },
        stringData: { token: 'not-the-actions' }
      },
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'gpu-operator', labels: { 'aks-rdma-action/created-by': 'run-1' } }
      }
    ]
    for (const o of foreign) await user.applyManifest(o)
    w.recorder.reset()
    const res = await uninstall('run-u1')
    expect(res.ok).toBe(true)
    expect(w.recorder.records.filter(r => r.mutating)).toEqual([])
    expect(get('', 'configmaps', 'kube-system', 'rdma-devices')).toBeDefined()
    expect(get('', 'namespaces', undefined, 'aks-rdma-verify')).toBeDefined()
    expect(get('', 'secrets', 'aks-rdma-verify', 'team-token')).toBeDefined()
    expect(get('', 'namespaces', undefined, 'gpu-operator')).toBeDefined()
    // Each is said to be kept, with the command that deletes it by hand if it is the user's to remove.
    expect(detailOf(res.steps, 'rdma-device-plugin')).toContain(
      'configmap/rdma-devices -n kube-system kept: not created by the action'
    )
    expect(detailOf(res.steps, 'rdma-device-plugin')).toContain(
      'kubectl delete configmap rdma-devices -n kube-system'
    )
    expect(detailOf(res.steps, 'probe-leftovers')).toContain('namespace/aks-rdma-verify kept')
    expect(detailOf(res.steps, 'gpu-operator')).toContain('namespace/gpu-operator kept')
    for (const o of foreign.filter(o => o.kind !== 'Secret' && o.metadata.name !== 'gpu-operator'))
      await user.deleteObject({
        apiVersion: o.apiVersion,
        kind: o.kind,
        name: o.metadata.name,
        namespace: o.metadata.namespace
      })
  })

  it('apply refuses a same-named release of another chart, naming it, and leaves it and its namespace untouched', async () => {
    await handInstallGpuOperator('network-operator', 'network-operator', '--create-namespace')
    const before = await releaseOf('network-operator', 'network-operator')
    const res = await apply('run-a1')
    expect(res.ok).toBe(false)
    const step = res.steps.find(s => s.name === 'network-operator')
    expect(step?.status).toBe('failure')
    expect(step?.detail).toContain(
      'helm release network-operator -n network-operator runs chart gpu-operator'
    )
    expect(await releaseOf('network-operator', 'network-operator')).toEqual(before)
    expect(before).toEqual({ revision: 1, chart: `gpu-operator ${GPU_VERSION}` })
    // The namespace helm made by hand is not the action's: its labels are left alone.
    expect(
      get('', 'namespaces', undefined, 'network-operator')?.metadata.labels?.[POD_SECURITY]
    ).toBeUndefined()
    expect(record()?.some(e => e.name === 'network-operator')).not.toBe(true)
    expect((await helm('uninstall', 'network-operator', '-n', 'network-operator')).code).toBe(0)
  })

  it('apply refuses a hand-installed release of the same chart (naming adopt-releases); uninstall keeps it and says so', async () => {
    await handInstallGpuOperator('gpu-operator', 'gpu-operator')
    const res = await apply('run-a2')
    expect(res.ok).toBe(false)
    const step = res.steps.find(s => s.name === 'gpu-operator')
    expect(step?.status).toBe('failure')
    expect(step?.detail).toContain('helm release gpu-operator -n gpu-operator')
    expect(step?.detail).toContain('adopt-releases: true')
    expect(await releaseOf('gpu-operator', 'gpu-operator')).toEqual({
      revision: 1,
      chart: `gpu-operator ${GPU_VERSION}`
    })
    // The Network Operator's namespace was made by hand (helm --create-namespace): warned, not labelled.
    const network = res.steps.find(s => s.name === 'network-operator')
    expect(network?.status).toBe('success')
    expect(network?.detail).toContain(`kubectl label namespace network-operator ${POD_SECURITY}=privileged`)
    expect(
      get('', 'namespaces', undefined, 'network-operator')?.metadata.labels?.[POD_SECURITY]
    ).toBeUndefined()
    // Drift leaves the labels of a namespace it did not create alone, as apply does, and says what it lacks.
    const driftLog = collectLog()
    const drift = await detectDrift({
      settings: w.settings({}, 'run-d2'),
      kubeconfigPath: w.kubeconfigPath,
      log: driftLog
    })
    expect(drift.filter(d => d.field.startsWith('namespace/network-operator'))).toEqual([])
    expect(
      driftLog.lines.filter(l => l.startsWith('warning: network-operator:') && l.includes(POD_SECURITY))
    ).toHaveLength(1)

    const un = await uninstall('run-u2')
    expect(un.ok).toBe(true)
    expect(detailOf(un.steps, 'gpu-operator')).toContain(
      'helm release gpu-operator -n gpu-operator kept: not installed by the action'
    )
    expect(await releaseOf('gpu-operator', 'gpu-operator')).toEqual({
      revision: 1,
      chart: `gpu-operator ${GPU_VERSION}`
    })
    // What the action did install is gone; the namespaces it found stay.
    expect(await releaseOf('network-operator', 'network-operator')).toBeUndefined()
    expect(get('', 'namespaces', undefined, 'network-operator')).toBeDefined()
    expect(get('apps', 'daemonsets', 'kube-system', 'ib-node-config')).toBeUndefined()
  })

  it('adopt-releases takes the same-chart release over and says so; uninstall then removes it, and finds nothing after', async () => {
    const res = await apply('run-a3', { 'adopt-releases': 'true' })
    if (!res.ok) console.log(res.diagnostics.map(d => d.text).join('\n\n'))
    expect(res.ok).toBe(true)
    expect(detailOf(res.steps, 'gpu-operator')).toMatch(/helm release gpu-operator -n gpu-operator .*adopted/)
    expect(record()?.find(e => e.kind === 'HelmRelease' && e.name === 'gpu-operator')).toMatchObject({
      state: 'adopted',
      runId: 'run-a3',
      chart: 'gpu-operator'
    })

    // A converged re-run writes nothing (the record included).
    w.recorder.reset()
    const again = await apply('run-a4')
    expect(again.ok).toBe(true)
    expect(w.recorder.records.filter(r => r.mutating)).toEqual([])

    const un = await uninstall('run-u3')
    expect(un.ok).toBe(true)
    expect(await releaseOf('gpu-operator', 'gpu-operator')).toBeUndefined()
    expect(get('mellanox.com', 'nicclusterpolicies', undefined, 'nic-cluster-policy')).toBeUndefined()
    // Every entry went with what it named; the namespaces the action found are not in it, and stay.
    expect(record()).toBeUndefined()
    for (const ns of ['gpu-operator', 'network-operator'])
      expect(get('', 'namespaces', undefined, ns)).toBeDefined()

    w.recorder.reset()
    const second = await uninstall('run-u4')
    expect(second.ok).toBe(true)
    expect(second.steps.every(s => s.action === 'unchanged')).toBe(true)
    expect(w.recorder.records.filter(r => r.mutating)).toEqual([])
  })
})
