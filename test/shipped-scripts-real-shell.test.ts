// The scripts the action puts into pods, judged by a real POSIX shell: ib-node-config's setup and
// keepalive, the RDMA device plugin's wait-for-ib-node-config init container, the node probe and
// the perftest client's retry loop each run in this machine's /bin/sh (dash on Ubuntu) against a
// fake node root, and in the simulator's shell against the same node; both must give the same
// exit code, log, tool calls (with their arguments), sleeps, node changes and host files.
// Harness and fake root: test/support/real-shell.ts.
import { describe, expect, it, jest } from '@jest/globals'
import { existsSync } from 'node:fs'
import { clientScript, perftestArgv } from '../src/benchmark/perftest-pods.js'
import { IB_NODE_CONFIG_DONE_FILE, ibNodeConfigDaemonSet } from '../src/components/ib-node-config.js'
import { rdmaDevicePluginManifests } from '../src/components/rdma-device-plugin.js'
import { readSettings } from '../src/settings/input-helper.js'
import { PROBE_SCRIPT, parseProbeOutput } from '../src/verify/probe-output.js'
import { probePod } from '../src/verify/probe.js'
import { buildNodeHardware, type NodeHardware } from '../sim/kube/hardware.js'
import { DEFAULT_SCENARIO } from '../sim/scenario.js'
import { reader, VALID_APPLY } from './support/inputs.js'
import { canSetMemlock, runInRealShell, runInSimShell, type ScriptCase } from './support/real-shell.js'

jest.setTimeout(120_000)

const SH = '/bin/sh'
const haveSh = existsSync(SH)
if (!haveSh) console.warn(`${SH} not found: the shipped scripts are not judged by a real shell here`)
const suite = haveSh ? describe : describe.skip

const settings = readSettings(reader({ ...VALID_APPLY, 'node-pool': 'rdmapool' }), {}).settings
const NODE = 'aks-rdmapool-12345678-vmss000000'

/** An H100 RDMA node, in the state `tweak` gives it. */
function node(tweak: (hw: NodeHardware) => void = () => {}): NodeHardware {
  const hw = buildNodeHardware({
    scenario: DEFAULT_SCENARIO,
    nodeName: NODE,
    pool: 'rdmapool',
    vmSize: 'Standard_ND96isr_H100_v5',
    osSku: 'Ubuntu',
    kubernetesVersion: '1.33',
    rdmaIndex: 0,
    ordinal: 4
  })
  tweak(hw)
  return hw
}

function podOf(template: any, name: string): any {
  return { metadata: { name, namespace: 'kube-system' }, spec: template.spec }
}

function shScript(container: any): string {
  expect(container.command.slice(0, 2)).toEqual(['sh', '-c'])
  return container.command[2]
}

/** Runs the case in both shells and checks they agree; returns the real run. */
async function judge(k: ScriptCase) {
  const [sim, real] = [await runInSimShell(k), await runInRealShell(k, SH)]
  // The real run changed nothing but the host paths' prefix.
  expect(real.rewritten.split(real.root).join('')).toBe(k.script)
  expect({ code: real.code, log: real.log }).toEqual({ code: sim.code, log: sim.log })
  expect(real.calls).toEqual(sim.calls)
  expect(real.sleeps).toEqual(sim.sleeps)
  expect(real.flakyRuns).toEqual(sim.flakyRuns)
  expect(real.state).toEqual(sim.state)
  expect(real.files).toEqual(sim.files)
  return real
}

suite(`the shipped scripts under ${SH} and under the simulator's shell`, () => {
  const ds = ibNodeConfigDaemonSet({ 'kubernetes.azure.com/agentpool': 'rdmapool' }) as any
  const ibPod = podOf(ds.spec.template, 'ib-node-config-x7k2p')
  const setup = ibPod.spec.initContainers[0]
  const keepalive = ibPod.spec.containers[0]

  it('ib-node-config setup on a node with OFED ready: modules, memlock drop-ins, restarts, then the done file', async () => {
    const real = await judge({
      script: shScript(setup),
      pod: ibPod,
      container: setup,
      hw: node(hw => (hw.ofedReady = true)),
      rdmaDevices: true
    })
    expect(real.code).toBe(0)
    expect(real.log).toContain('OK: ib_umad\n')
    expect(real.log).toContain('/dev/infiniband/rdma_cm\nOK: rdma_cm device\n')
    expect(real.log).toContain(
      'active\nOK: containerd active\nactive\nOK: kubelet active\n=== Setup Complete ===\n'
    )
    expect(real.calls).toEqual([
      ['modprobe', 'ib_umad'],
      ['modprobe', 'rdma_ucm'],
      ['modprobe', 'ib_ucm'],
      ['lsmod'],
      ['systemctl', 'daemon-reload'],
      ['systemctl', 'restart', 'containerd'],
      ['systemctl', 'restart', 'kubelet'],
      ['systemctl', 'is-active', 'containerd'],
      ['systemctl', 'is-active', 'kubelet']
    ])
    expect(real.sleeps).toEqual(['10'])
    expect(real.state).toEqual({
      ibModulesLoaded: true,
      memlockUnlimited: true,
      kubeletRestarts: 1,
      containerdRestarts: 1
    })
    expect(real.files).toEqual({
      '/etc/security/limits.d/99-ib-memlock.conf': '* - memlock unlimited\nroot - memlock unlimited\n',
      '/etc/systemd/system/containerd.service.d/memlock.conf': '[Service]\nLimitMEMLOCK=infinity\n',
      '/etc/systemd/system/kubelet.service.d/memlock.conf': '[Service]\nLimitMEMLOCK=infinity\n',
      [IB_NODE_CONFIG_DONE_FILE]: 'ib_umad\nrdma_ucm\n'
    })
  })

  it('ib-node-config keepalive', async () => {
    const real = await judge({
      script: shScript(keepalive),
      pod: ibPod,
      container: keepalive,
      hw: node(),
      rdmaDevices: false
    })
    expect(real).toMatchObject({ code: 0, log: 'IB node config active\n', sleeps: ['infinity'] })
  })

  const [, dpDs] = rdmaDevicePluginManifests(settings) as any[]
  const dpPod = podOf(dpDs.spec.template, 'rdma-shared-dp-ds-q8v4m')
  const wait = dpPod.spec.initContainers[0]

  it('device plugin init container: ib-node-config already done', async () => {
    const real = await judge({
      script: shScript(wait),
      pod: dpPod,
      container: wait,
      hw: node(hw => (hw.files[IB_NODE_CONFIG_DONE_FILE] = 'ib_umad\nrdma_ucm\n')),
      rdmaDevices: false
    })
    expect(real).toMatchObject({ code: 0, log: 'ib-node-config has completed on this node\n', sleeps: [] })
  })

  it('device plugin init container: ib-node-config finishes while it waits', async () => {
    const real = await judge({
      script: shScript(wait),
      pod: dpPod,
      container: wait,
      hw: node(),
      rdmaDevices: false,
      onSleep: { after: 3, hostPath: IB_NODE_CONFIG_DONE_FILE, content: 'ib_umad\nrdma_ucm\n' }
    })
    expect(real.code).toBe(0)
    expect(real.log).toBe(
      `waiting for ib-node-config to complete on this node (${IB_NODE_CONFIG_DONE_FILE})\nib-node-config has completed on this node\n`
    )
    expect(real.sleeps).toEqual(['5', '5', '5'])
  })

  it('device plugin init container: gives up after its bound with the reason', async () => {
    const real = await judge({
      script: shScript(wait),
      pod: dpPod,
      container: wait,
      hw: node(),
      rdmaDevices: false
    })
    expect(real.code).toBe(1)
    expect(real.sleeps).toHaveLength(120)
    expect(real.log.trim().split('\n')).toEqual([
      `waiting for ib-node-config to complete on this node (${IB_NODE_CONFIG_DONE_FILE})`,
      `ib-node-config has not completed on this node after 600s (no ${IB_NODE_CONFIG_DONE_FILE}); check the ib-node-config pod on this node`
    ])
  })

  const probe = probePod(settings, NODE) as any
  const probeContainer = probe.spec.containers[0]

  it('node probe on a set-up node (the facts read from both logs agree)', async () => {
    expect(shScript(probeContainer)).toBe(PROBE_SCRIPT)
    const hw = node(h => {
      h.ofedReady = true
      h.ibModulesLoaded = true
      h.gpuDriverReady = true
      h.nvidiaPeermemLoaded = true
      h.memlockUnlimited = false
    })
    const real = await judge({
      script: PROBE_SCRIPT,
      pod: probe,
      container: probeContainer,
      hw,
      rdmaDevices: true
    })
    expect(real.code).toBe(0)
    const facts = parseProbeOutput(NODE, real.log)
    expect(facts).toMatchObject({ error: null, memlock: String(hw.memlockDefaultKiB), peermemLoaded: true })
    expect(facts.activeDevices).toHaveLength(8)
  })

  it('node probe where memlock is unlimited (when this machine lets the shell raise it)', async () => {
    if (!(await canSetMemlock('unlimited', SH))) {
      console.warn(`${SH} may not raise memlock to unlimited here: the unlimited probe case is not run`)
      return
    }
    const hw = node(h => {
      h.ofedReady = true
      h.memlockUnlimited = true
    })
    const real = await judge({
      script: PROBE_SCRIPT,
      pod: probe,
      container: probeContainer,
      hw,
      rdmaDevices: true
    })
    expect(parseProbeOutput(NODE, real.log).memlockUnlimited).toBe(true)
  })

  it('perftest client: retries until its server answers, arguments intact', async () => {
    const argv = perftestArgv(settings, 'ib_write_bw', 'client', 'mlx5_ib0', 18515, true, '10.244.1.7')
    const script = clientScript(argv, 4)
    const real = await judge({
      script,
      pod: { metadata: { name: 'perftest-client' }, spec: {} },
      container: { name: 'd0', image: settings.benchmark.image, command: ['sh', '-c', script] },
      hw: node(),
      rdmaDevices: true,
      flaky: { name: 'ib_write_bw', failures: 2, err: "Couldn't connect to 10.244.1.7:18515\n" }
    })
    expect(real.code).toBe(0)
    expect(real.flakyRuns).toEqual(Array(3).fill(argv.slice(1)))
    expect(real.sleeps).toEqual(['2', '2'])
    const gaveUp = await judge({
      script,
      pod: { metadata: { name: 'perftest-client' }, spec: {} },
      container: { name: 'd0', image: settings.benchmark.image, command: ['sh', '-c', script] },
      hw: node(),
      rdmaDevices: true,
      flaky: { name: 'ib_write_bw', failures: 9, err: "Couldn't connect to 10.244.1.7:18515\n" }
    })
    expect(gaveUp).toMatchObject({ code: 1, sleeps: ['2', '2', '2', '2'] })
  })
})
