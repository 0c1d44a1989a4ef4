// The simulated API server driven by the real kubectl (skipped with a printed reason when
// /usr/bin/kubectl is absent): get/describe/logs/wait, server-side apply of a ConfigMap, a
// DaemonSet and a NicClusterPolicy after its CRD, conflicts, and delete.
import { expect, it } from '@jest/globals'
import { type TestWorld, nodeObject, podObject, NCP_CRD } from '../../support/apiserver-world.js'
import { kubectlSuite } from '../../support/kubectl-apiserver.js'

let w: TestWorld

const DAEMONSET = (image: string) => `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: ib-node-config
  namespace: kube-system
  labels: {app: ib-node-config}
spec:
  selector: {matchLabels: {app: ib-node-config}}
  template:
    metadata: {labels: {app: ib-node-config}}
    spec:
      nodeSelector: {pool: ib}
      containers:
      - name: config
        image: ${image}
`

kubectlSuite(
  'kubectl against the simulated API server',
  'sim-kubectl-',
  async world => {
    w = world
    for (const n of ['aks-ib-0', 'aks-ib-1']) w.put('', 'nodes', nodeObject(n, { pool: 'ib' }))
    w.put('', 'pods', podObject('default', 'x-1', 'aks-ib-0', { app: 'x' }))
    w.put('', 'pods', podObject('kube-system', 'sys-1', 'aks-ib-1'))
  },
  ({ kubectl, ok, file }) => {
    it('gets nodes, pods (wide), daemonsets and describes a node', async () => {
      const nodes = await ok('get', 'nodes')
      expect(nodes).toMatch(/NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION/)
      expect(nodes).toMatch(/aks-ib-0\s+Ready\s+<none>\s+\S+\s+v1\.33\.2/)
      const pods = await ok('get', 'pods', '-A', '-o', 'wide')
      expect(pods).toMatch(/default\s+x-1\s+0\/1\s+Running\s+0\s+\S+\s+10\.244\.0\.7\s+aks-ib-0/)
      expect(pods).toContain('sys-1')
      const ds = await kubectl('get', 'ds', '-A')
      expect(ds.code).toBe(0)
      expect(ds.stderr).toContain('No resources found')
      const described = await ok('describe', 'node', 'aks-ib-0')
      expect(described).toMatch(/Name:\s+aks-ib-0/)
      expect(described).toContain('x-1')
    })

    it('applies server-side (ConfigMap, DaemonSet), reports conflicts, and is idempotent', async () => {
      const cm = file(
        'cm.yaml',
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: rdma-cfg, namespace: default}\ndata: {a: "1"}\n'
      )
      expect(await ok('apply', '--server-side', '-f', cm)).toContain('configmap/rdma-cfg serverside-applied')
      const ds = file('ds.yaml', DAEMONSET('busybox:1'))
      await ok('apply', '--server-side', '-f', ds)
      const rv = w.store.get(w.type('apps', 'daemonsets'), 'kube-system', 'ib-node-config').metadata
        .resourceVersion
      await ok('apply', '--server-side', '-f', ds)
      expect(
        w.store.get(w.type('apps', 'daemonsets'), 'kube-system', 'ib-node-config').metadata.resourceVersion
      ).toBe(rv)
      expect(await ok('get', 'ds', '-A')).toMatch(
        /kube-system\s+ib-node-config\s+0\s+0\s+0\s+0\s+0\s+pool=ib/
      )

      const other = file('ds2.yaml', DAEMONSET('busybox:2'))
      const conflict = await kubectl('apply', '--server-side', '--field-manager=someone', '-f', other)
      expect(conflict.code).not.toBe(0)
      expect(conflict.stderr).toContain(
        'Apply failed with 1 conflict: conflict with "kubectl" using apps/v1: .spec.template.spec.containers[name="config"].image'
      )
      await ok('apply', '--server-side', '--field-manager=someone', '--force-conflicts', '-f', other)
      expect(
        await ok(
          'get',
          'ds',
          'ib-node-config',
          '-n',
          'kube-system',
          '-o',
          'jsonpath={.spec.template.spec.containers[0].image}'
        )
      ).toBe('busybox:2')
      expect(await ok('delete', '-f', cm)).toContain('configmap "rdma-cfg" deleted')
      expect(w.store.tryGet(w.type('', 'configmaps'), 'default', 'rdma-cfg')).toBeUndefined()
    })

    it('applies the NicClusterPolicy CRD, then a NicClusterPolicy reachable as ncp, and waits on its status', async () => {
      expect(await ok('apply', '--server-side', '-f', NCP_CRD)).toContain(
        'nicclusterpolicies.mellanox.com serverside-applied'
      )
      await ok('wait', '--for=condition=Established', 'crd/nicclusterpolicies.mellanox.com', '--timeout=60s')
      const ncp = file(
        'ncp.yaml',
        'apiVersion: mellanox.com/v1alpha1\nkind: NicClusterPolicy\nmetadata: {name: nic-cluster-policy}\nspec:\n  ofedDriver: {image: doca-driver, repository: nvcr.io/nvidia/mellanox, version: "25.04"}\n'
      )
      await ok('apply', '--server-side', '-f', ncp)
      expect(await ok('get', 'ncp')).toMatch(/NAME\s+STATUS\s+AGE\s*\nnic-cluster-policy\s/)
      const waiting = kubectl(
        'wait',
        '--for=jsonpath={.status.state}=ready',
        'ncp/nic-cluster-policy',
        '--timeout=60s'
      )
      setTimeout(() => {
        w.store.mutate(
          w.type('mellanox.com', 'nicclusterpolicies'),
          undefined,
          'nic-cluster-policy',
          o => (o.status = { state: 'ready' }),
          {
            subresource: 'status'
          }
        )
      }, 500)
      const waited = await waiting
      expect(waited.stderr).toBe('')
      expect(waited.stdout).toContain('nicclusterpolicy.mellanox.com/nic-cluster-policy condition met')
      expect(await ok('get', 'ncp')).toMatch(/nic-cluster-policy\s+ready/)
    })

    it('shows logs and waits for pod readiness', async () => {
      w.logs.set('default/x-1', 'hello from x-1\n')
      expect(await ok('logs', 'x-1')).toBe('hello from x-1\n')
      const timedOut = await kubectl('wait', '--for=condition=Ready', 'pod', '-l', 'app=x', '--timeout=1s')
      expect(timedOut.code).not.toBe(0)
      const waiting = kubectl('wait', '--for=condition=Ready', 'pod', '-l', 'app=x', '--timeout=60s')
      setTimeout(() => {
        w.store.mutate(
          w.type('', 'pods'),
          'default',
          'x-1',
          p => (p.status.conditions = [{ type: 'Ready', status: 'True' }]),
          {
            subresource: 'status'
          }
        )
      }, 300)
      const waited = await waiting
      expect(waited.stdout).toContain('pod/x-1 condition met')
      // No kubelet runs on aks-ib-0 to confirm a graceful delete: force it, as one would.
      expect(await ok('delete', 'pod', 'x-1', '--grace-period=0', '--force')).toContain(
        'pod "x-1" force deleted'
      )
    })
  }
)
