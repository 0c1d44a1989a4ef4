// What the guide gets wrong, reproduced by the simulator on a stack built from the action's own
// manifests, and caught by the action's own verification with its own words: the device plugin's
// selectors without linkTypes hand pods the Ethernet VF; allocatable follows the plugin's config;
// a Down InfiniBand port fails the node that has it, naming the NIC; without the containerd
// restart memlock stays at the image default and ib-node-config's own check fails the setup; with
// useHostMofed the peermem sidecar crash-loops.
// The first world is the action's stack as shipped: every check passes, and a bug planted in the
// action's manifests (linkTypes dropped, useHostMofed on, no containerd restart) fails it.
import { describe, expect, it, jest } from '@jest/globals'
import type { KubeObject } from '../../../src/kube/types.js'
import { runVerification } from '../../../src/verify/index.js'
import {
  byName,
  checksOn,
  expectPeermemCrashLoops,
  ibDevices,
  rdmaWorldForTests,
  verifyOn,
  withRdmaWorld
} from '../../support/verify-world.js'

jest.setTimeout(120_000)

const IB = ibDevices(8)

/** Rewrites the device plugin's config.json in the action's ConfigMap. */
function dpConfig(edit: (config: { configList: any[] }) => void) {
  return (m: KubeObject) => {
    if (m.kind !== 'ConfigMap' || m.metadata.name !== 'rdma-devices') return
    const config = JSON.parse(m.data['config.json'])
    edit(config)
    m.data['config.json'] = JSON.stringify(config)
  }
}

describe("the action's stack as shipped", () => {
  const w = rdmaWorldForTests({ nodes: 2 })

  it('pods get only the InfiniBand devices, memlock is unlimited, nvidia_peermem loads: every check passes', async () => {
    const v = await verifyOn(w)
    for (const c of v.checks)
      expect({ check: c.name, status: c.status, detail: c.detail }).toMatchObject({ status: 'pass' })
    for (const node of w.rdmaNodes()) {
      const f = v.facts!.get(node)!
      expect(f.podDevices!.map(d => d.ca)).toEqual(IB)
      expect(f.memlock).toBe('unlimited')
      expect(f.peermemLoaded).toBe(true)
      expect(w.sim.nodeStates()[node].rdmaMatchedDevices['rdma/hca_shared_devices_a']).toEqual(IB)
    }
  })
})

describe('the guide’s bugs, caught by verification', () => {
  it('a device plugin config without linkTypes: pods also get the Ethernet VF mlx5_an0, and node-probe fails naming it', () =>
    withRdmaWorld(
      {
        nodes: 2,
        alter: dpConfig(c => {
          for (const r of c.configList) delete r.selectors.linkTypes
        })
      },
      async w => {
        const v = await verifyOn(w)
        const checks = byName(v.checks)
        // The plugin advertises as before (allocatable is rdmaHcaMax either way): only the probe sees it.
        expect(checks['rdma-device-plugin'].status).toBe('pass')
        expect(checks['node-probe'].status).toBe('fail')
        for (const n of checks['node-probe'].nodes!)
          expect(n.detail).toBe(
            "rdma/hca_shared_devices_a gives pods the Ethernet device mlx5_an0: the device plugin's selectors also match the accelerated-networking VF (select linkTypes: [infiniband])"
          )
        const f = v.facts!.get(w.rdmaNodes()[0])!
        expect(f.podDevices!.map(d => [d.ca, d.linkLayer])).toEqual([
          ['mlx5_an0', 'Ethernet'],
          ...IB.map(ca => [ca, 'InfiniBand'])
        ])
      }
    ))

  it("allocatable follows the plugin's config: rdmaHcaMax, and 0 when the selectors match no device", () =>
    withRdmaWorld(
      {
        nodes: 2,
        alter: dpConfig(c => {
          c.configList[0].rdmaHcaMax = 63
          // A second resource whose selectors match nothing on these nodes (ConnectX-7 VFs on A100 v4).
          c.configList.push({
            resourceName: 'cx7_only',
            rdmaHcaMax: 10,
            selectors: { vendors: ['15b3'], deviceIDs: ['101e'] }
          })
        })
      },
      async w => {
        const nodes = (
          await w.kube.list('v1', 'Node', { labelSelector: 'kubernetes.azure.com/agentpool=rdmapool' })
        ).items
        for (const n of nodes) {
          expect(n.status.allocatable['rdma/hca_shared_devices_a']).toBe('63')
          expect(n.status.allocatable['rdma/cx7_only']).toBe('0')
        }
        const checks = await checksOn(w)
        expect(checks['rdma-device-plugin'].detail).toMatch(/allocatable rdma\/hca_shared_devices_a = 63/)
        expect(checks['node-probe'].status).toBe('pass')
        const other = byName(
          (
            await runVerification({
              settings: { ...w.settings, stack: { ...w.settings.stack, rdmaResourceName: 'cx7_only' } },
              kube: w.kube,
              mode: 'drift'
            })
          ).checks
        )
        expect(other['rdma-device-plugin'].status).toBe('fail')
        for (const n of other['rdma-device-plugin'].nodes!)
          expect(n.detail).toBe('allocatable rdma/cx7_only = 0')
      }
    ))

  it('a Down InfiniBand port fails node-probe on that node, naming the NIC', () =>
    withRdmaWorld(
      {
        nodes: 2,
        scenario: { nodes: { degraded: [{ index: 1, nic: 3, gbps: 0 }] } }
      },
      async w => {
        const checks = await checksOn(w)
        const [good, bad] = w.rdmaNodes()
        expect(checks['node-probe'].status).toBe('fail')
        expect(checks['node-probe'].detail).toBe(
          `1 of 2 node(s) failing: ${bad}: mlx5_ib3 port 1 Down/Polling`
        )
        expect(checks['node-probe'].nodes!.find(n => n.node === good)!.status).toBe('pass')
      }
    ))

  it('ib-node-config without the containerd restart: memlock stays at the default, and its own check fails the setup', () =>
    withRdmaWorld(
      {
        nodes: 2,
        alter: m => {
          if (m.kind !== 'DaemonSet' || m.metadata.name !== 'ib-node-config') return
          const c = m.spec.template.spec.initContainers.find((x: { name: string }) => x.name === 'ib-setup')
          // The restart loop leaves containerd out (the check that follows still covers both).
          c.command = c.command.map((t: string) =>
            t.replace('for svc in containerd kubelet; do\n  pid=', 'for svc in kubelet; do\n  pid=')
          )
        }
      },
      async w => {
        const checks = await checksOn(w)
        expect(checks['ib-node-config'].status).toBe('fail')
        // How the pod fails comes first; that it runs another script than these settings' follows.
        for (const n of checks['ib-node-config'].nodes!)
          expect(n.detail).toMatch(
            /: init container ib-setup (terminated: exit 1 \(Error\)|waiting: CrashLoopBackOff).* \(it runs an earlier setup script: apply replaces the pod\)$/
          )
        const pods = (
          await w.kube.list('v1', 'Pod', { namespace: 'kube-system', labelSelector: 'app=ib-node-config' })
        ).items
        for (const p of pods) {
          const log = await w.kube.podLog('kube-system', p.metadata.name, {
            container: 'ib-setup',
            previous: false
          })
          expect(log).toMatch(
            /^FAIL: containerd \(pid \d+\) runs without memlock unlimited after its restart\. /m
          )
        }
        for (const node of w.rdmaNodes()) {
          expect(w.sim.nodeStates()[node]).toMatchObject({ containerdRestarts: 0, memlockUnlimited: false })
        }
        // Nothing downstream pretends otherwise: the device plugin waits for ib-node-config's last file.
        expect(checks['rdma-device-plugin'].status).toBe('fail')
      }
    ))

  it('use-host-mofed true: the peermem sidecar does not wait for the DOCA driver, crash-loops, and both checks fail', () =>
    withRdmaWorld({ nodes: 2, inputs: { 'use-host-mofed': 'true' } }, async w => {
      expectPeermemCrashLoops(await checksOn(w))
      const driverPods = (
        await w.kube.list('v1', 'Pod', {
          namespace: 'gpu-operator',
          labelSelector: 'app=nvidia-driver-daemonset'
        })
      ).items
      const log = await w.kube.podLog('gpu-operator', driverPods[0].metadata.name, {
        container: 'nvidia-peermem-ctr'
      })
      expect(log).toMatch(/could not insert 'nvidia_peermem': Invalid argument/)
    }))
})
