// The scripts the action puts into pods, judged by a real POSIX shell: ib-node-config's setup and
// keepalive, the RDMA device plugin's wait-for-ib-node-config init container, the node probe and
// the perftest client's retry loop each run in this machine's /bin/sh (dash on Ubuntu) against a
// fake node root, and in the simulator's shell against the same node; both must give the same
// exit code, log, tool calls (with their arguments), sleeps, node changes and host files.
// Harness and fake root: test/support/real-shell.ts.
import { describe, expect, it, jest } from '@jest/globals'
import { existsSync } from 'node:fs'
import { perftestArgv, sideScript, splitSections } from '../src/benchmark/perftest-pods.js'
import { IB_NODE_CONFIG_DONE_FILE, ibNodeConfigDaemonSet } from '../src/components/ib-node-config.js'
import { rdmaDevicePluginManifests } from '../src/components/rdma-device-plugin.js'
import { readSettings } from '../src/settings/input-helper.js'
import { PROBE_SCRIPT, parseProbeOutput } from '../src/verify/probe-output.js'
import { probeDaemonSet } from '../src/verify/probe.js'
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
  expect(real.terminationLog).toEqual(sim.terminationLog)
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

  const probeDs = probeDaemonSet(settings, [NODE]) as any
  const probe = podOf(probeDs.spec.template, 'rdma-probe-x7k2p')
  const probeContainer = probe.spec.initContainers[0]

  it('node probe on a set-up node: the same termination message from both shells, and the NIC-local GPUs', async () => {
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
    expect(real.terminationLog).toBeDefined()
    // The message fits the kubelet's 4096 bytes with room to spare on an 8-NIC, 8-GPU node.
    expect(Buffer.byteLength(real.terminationLog!)).toBeLessThan(3000)
    expect(real.log).toBe(real.terminationLog)
    const facts = parseProbeOutput(NODE, real.terminationLog!)
    expect(facts).toMatchObject({ error: null, memlock: '8192', peermemLoaded: true })
    expect(facts.activeDevices).toHaveLength(8)
    expect(facts.gpus.map(g => g.pciAddress)).toEqual(hw.gpus.map(g => g.pciAddress))
    // Each NIC with the GPU behind its own PCIe switch (which the VM does not show; NUMA rank finds it).
    expect(facts.nics.map(n => n.localGpu)).toEqual(
      facts.nics.map(
        n => hw.gpus.find(g => g.pcieSwitch === hw.nics.find(x => x.name === n.device)!.pcieSwitch)!.index
      )
    )
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
    expect(parseProbeOutput(NODE, real.terminationLog!).memlockUnlimited).toBe(true)
  })

  it('perftest client: retries until its server answers, arguments intact, its output in its own section', async () => {
    const argv = perftestArgv(settings, 'ib_write_bw', 'client', 'mlx5_ib3', 18518, 3, '10.244.1.7')
    expect(argv).toContain('--use_cuda=3')
    const script = sideScript('client', [{ index: 3, device: 'mlx5_ib3', argv }], 4)
    const container = { name: 'perftest', image: settings.benchmark.image, command: ['sh', '-c', script] }
    const real = await judge({
      script,
      pod: { metadata: { name: 'perftest-client' }, spec: {} },
      container,
      hw: node(),
      rdmaDevices: true,
      flaky: { name: 'ib_write_bw', failures: 2, err: "Couldn't connect to 10.244.1.7:18518\n" }
    })
    expect(real.code).toBe(0)
    expect(real.flakyRuns).toEqual(Array(3).fill(argv.slice(1)))
    expect(real.sleeps).toEqual(['2', '2'])
    expect(splitSections(real.log)).toEqual(new Map([[3, { text: '', exitCode: 0 }]]))
    const gaveUp = await judge({
      script,
      pod: { metadata: { name: 'perftest-client' }, spec: {} },
      container,
      hw: node(),
      rdmaDevices: true,
      flaky: { name: 'ib_write_bw', failures: 9, err: "Couldn't connect to 10.244.1.7:18518\n" }
    })
    expect(gaveUp).toMatchObject({ code: 0, sleeps: ['2', '2', '2', '2'] })
    expect(splitSections(gaveUp.log)).toEqual(
      new Map([[3, { text: "Couldn't connect to 10.244.1.7:18518", exitCode: 1 }]])
    )
  })

  it('perftest server: every device at once, each output apart with its exit code', async () => {
    const runs = [0, 1].map(i => ({
      index: i,
      device: `mlx5_ib${i}`,
      argv: perftestArgv(settings, 'ib_write_bw', 'server', `mlx5_ib${i}`, 18515 + i, i)
    }))
    const script = sideScript('server', runs)
    // No perftest on this machine's PATH, nor in the simulator's bare shell: each run fails alike.
    const real = await judge({
      script,
      pod: { metadata: { name: 'perftest-server' }, spec: {} },
      container: { name: 'perftest', image: settings.benchmark.image, command: ['sh', '-c', script] },
      hw: node(),
      rdmaDevices: true
    })
    expect(real.code).toBe(0)
    const sections = splitSections(real.log)
    expect([...sections.keys()]).toEqual([0, 1])
    for (const x of sections.values())
      expect(x).toEqual({ text: 'sh: 1: ib_write_bw: not found', exitCode: 127 })
  })
})
