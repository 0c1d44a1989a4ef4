// The scripts the action puts into pods, judged by a real POSIX shell: ib-node-config's wait for
// the OFED driver, its setup (set -e, restarts only when needed, checks of the result) and keepalive, the RDMA device plugin's wait-for-ib-node-config init container, the node probe and
// the perftest client's retry loop each run in this machine's /bin/sh (dash on Ubuntu) against a
// fake node root, and in the simulator's shell against the same node; both must give the same
// exit code, log, tool calls (with their arguments), sleeps, node changes and host files.
// Harness and fake root: test/support/real-shell.ts.
import { beforeAll, describe, expect, it, jest } from '@jest/globals'
import { existsSync } from 'node:fs'
import { perftestArgv, sideScript, splitSections } from '../../../src/benchmark/perftest-pods.js'
import { IB_NODE_CONFIG_DONE_FILE } from '../../../src/components/shared.js'
import {
  ibNodeConfigDaemonSet,
  OFED_READY_FILE,
  RESTART_MARKER,
  WAIT_FOR_OFED_DRIVER
} from '../../../src/components/ib-node-config.js'
import { rdmaDevicePluginManifests } from '../../../src/components/rdma-device-plugin.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { PROBE_SCRIPT, parseProbeOutput } from '../../../src/verify/probe-output.js'
import { probeDaemonSet } from '../../../src/verify/probe.js'
import { buildNodeHardware, type NodeHardware } from '../../../sim/kube/hardware.js'
import { DEFAULT_SCENARIO } from '../../../sim/scenario.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { canSetMemlock, runInRealShell, runInSimShell, type ScriptCase } from '../../support/real-shell.js'

jest.setTimeout(120_000)

const SH = '/bin/sh'
const haveSh = existsSync(SH)
if (!haveSh) console.warn(`${SH} not found: the shipped scripts are not judged by a real shell here`)
const suite = haveSh ? describe : describe.skip

// Built before the tests, not while the file loads (a settings bug fails tests, not the file).
let settings: Settings
beforeAll(() => {
  settings = readSettings(reader({ ...VALID_APPLY, 'node-pool': 'rdmapool' }), {}).settings
})
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

/** The case of a shipped container: its own `sh -c` script, in its pod. */
function shipped(
  pod: any,
  container: any,
  hw: NodeHardware,
  rdmaDevices: boolean,
  extra: Partial<ScriptCase> = {}
): ScriptCase {
  return { script: shScript(container), pod, container, hw, rdmaDevices, ...extra }
}

/** The case of `script` alone, as `sh -c` in container `name` of `image`, on a fresh node. */
function bare(name: string, image: string, script: string, extra: Partial<ScriptCase> = {}): ScriptCase {
  const container = { name, image, command: ['sh', '-c', script] }
  return {
    script,
    pod: { metadata: { name }, spec: {} },
    container,
    hw: node(),
    rdmaDevices: false,
    ...extra
  }
}

suite(`the shipped scripts under ${SH} and under the simulator's shell`, () => {
  // The pods the shipped manifests make, built before the tests (not while the file loads).
  let ibPod: any, waitOfed: any, setup: any, keepalive: any
  let dpPod: any, wait: any
  let probe: any, probeContainer: any
  beforeAll(() => {
    ibPod = podOf((ibNodeConfigDaemonSet(settings) as any).spec.template, 'ib-node-config-x7k2p')
    ;[waitOfed, setup] = ibPod.spec.initContainers
    keepalive = ibPod.spec.containers[0]
    const [, dpDs] = rdmaDevicePluginManifests(settings) as any[]
    dpPod = podOf(dpDs.spec.template, 'rdma-shared-dp-ds-q8v4m')
    wait = dpPod.spec.initContainers[0]
    probe = podOf((probeDaemonSet(settings, [NODE]) as any).spec.template, 'rdma-probe-x7k2p')
    probeContainer = probe.spec.initContainers[0]
  })
  const ofedReady = (hw: NodeHardware): void => {
    hw.ofedReady = true
    hw.files[OFED_READY_FILE] = ''
  }

  it('ib-node-config waits for the OFED driver: ready already, ready while it waits, gives up after its bound', async () => {
    expect(waitOfed.name).toBe(WAIT_FOR_OFED_DRIVER)
    const ready = await judge(shipped(ibPod, waitOfed, node(ofedReady), false))
    expect(ready).toMatchObject({ code: 0, log: 'the OFED driver is ready on this node\n', sleeps: [] })
    const later = await judge(
      shipped(ibPod, waitOfed, node(), false, {
        onSleep: { after: 2, hostPath: OFED_READY_FILE, content: '' }
      })
    )
    expect(later).toMatchObject({
      code: 0,
      log: `waiting for the OFED driver on this node (${OFED_READY_FILE}), at most 2410s\nthe OFED driver is ready on this node\n`,
      sleeps: ['10', '10']
    })
    const never = await judge(shipped(ibPod, waitOfed, node(), false))
    expect(never.code).toBe(1)
    expect(never.sleeps).toHaveLength(241)
    expect(never.log).toContain(
      `the OFED driver is not ready on this node after 2410s, the driver pod's startup budget (no ${OFED_READY_FILE})`
    )
  })

  it('ib-node-config setup on a fresh node: modules, memlock drop-ins, restarts, checks of the result, then the done file', async () => {
    const real = await judge(shipped(ibPod, setup, node(ofedReady), true))
    expect(real.code).toBe(0)
    expect(real.log.split('\n')).toEqual([
      '=== IB Node Configuration ===',
      '/dev/infiniband/rdma_cm',
      'OK: rdma_cm device',
      'restarting containerd (pid 1043) for memlock unlimited',
      'restarting kubelet (pid 2816) for memlock unlimited',
      'active',
      'OK: containerd active',
      'OK: containerd runs with memlock unlimited (pid 1132)',
      'active',
      'OK: kubelet active',
      'OK: kubelet runs with memlock unlimited (pid 2913)',
      'OK: ib_umad loaded',
      'OK: rdma_ucm loaded',
      '=== Setup Complete ===',
      ''
    ])
    expect(real.calls).toEqual([
      ['modprobe', 'ib_umad'],
      ['modprobe', 'rdma_ucm'],
      ['systemctl', 'daemon-reload'],
      ['systemctl', 'show', '-p', 'MainPID', '--value', 'containerd'],
      ['systemctl', 'restart', 'containerd'],
      ['systemctl', 'show', '-p', 'MainPID', '--value', 'kubelet'],
      ['systemctl', 'restart', 'kubelet'],
      ['systemctl', 'is-active', 'containerd'],
      ['systemctl', 'show', '-p', 'MainPID', '--value', 'containerd'],
      ['systemctl', 'is-active', 'kubelet'],
      ['systemctl', 'show', '-p', 'MainPID', '--value', 'kubelet'],
      ['lsmod'],
      ['lsmod']
    ])
    expect(real.sleeps).toEqual(['10'])
    expect(real.state).toEqual({
      ibModulesLoaded: true,
      memlockUnlimited: true,
      kubeletMemlockUnlimited: true,
      kubeletRestarts: 1,
      containerdRestarts: 1
    })
    expect(real.files).toEqual({
      '/etc/security/limits.d/99-ib-memlock.conf': '* - memlock unlimited\nroot - memlock unlimited\n',
      '/etc/systemd/system/containerd.service.d/memlock.conf': '[Service]\nLimitMEMLOCK=infinity\n',
      '/etc/systemd/system/kubelet.service.d/memlock.conf': '[Service]\nLimitMEMLOCK=infinity\n',
      [OFED_READY_FILE]: '',
      [RESTART_MARKER]: '',
      [IB_NODE_CONFIG_DONE_FILE]: 'ib_umad\nrdma_ucm\n'
    })
  })

  it('ib-node-config restarts containerd and kubelet at most once per boot: a later drop-in that sets LimitMEMLOCK fails the run, and the re-run restarts nothing', async () => {
    // A drop-in read after ours (systemd reads them in name order; the last assignment wins).
    const override = '/etc/systemd/system/containerd.service.d/zz-limits.conf'
    const k = (hw: NodeHardware): ScriptCase => shipped(ibPod, setup, hw, true)
    const first = await judge(
      k(
        node(hw => {
          ofedReady(hw)
          hw.files[override] = '[Service]\nLimitMEMLOCK=65536\n'
        })
      )
    )
    expect(first.code).toBe(1)
    expect(first.state).toMatchObject({ containerdRestarts: 1, kubeletRestarts: 1 })
    expect(first.log).toContain(
      'FAIL: containerd (pid 1132) runs without memlock unlimited after its restart. Another systemd drop-in or the unit itself may set LimitMEMLOCK after ours: see systemctl show -p LimitMEMLOCK,DropInPaths containerd on the node.\n'
    )
    expect(first.files[RESTART_MARKER]).toBe('')
    expect(first.files[IB_NODE_CONFIG_DONE_FILE]).toBeUndefined()
    // The kubelet runs the init container again (back-off): same boot, so the marker is there.
    const again = await judge(
      k(
        node(hw => {
          ofedReady(hw)
          Object.assign(hw.files, first.files)
          Object.assign(hw, first.state)
        })
      )
    )
    expect(again.code).toBe(1)
    expect(again.calls.filter(c => c[1] === 'restart')).toEqual([])
    expect(again.state).toMatchObject({ containerdRestarts: 1, kubeletRestarts: 1 })
    expect(again.log).toContain(
      'FAIL: containerd (pid 1132) runs without memlock unlimited although ib-node-config already restarted containerd and kubelet once since this node booted (/run/ib-node-config/restarted); not restarting them again.'
    )
    expect(again.sleeps).toEqual([])
  })

  it('ib-node-config setup again on a configured node (pod recreated, node rebooted): restarts nothing', async () => {
    const hw = node(h => {
      ofedReady(h)
      h.memlockUnlimited = true
      h.kubeletMemlockUnlimited = true
      h.kubeletRestarts = 1
      h.containerdRestarts = 1
    })
    const k = shipped(ibPod, setup, hw, true)
    // The container runs with containerd's (unlimited) memlock: judged by the real shell only
    // where this machine lets it raise the limit; the simulator's shell runs it everywhere.
    const both = await canSetMemlock('unlimited', SH)
    if (!both)
      console.warn(
        `${SH} may not raise memlock to unlimited here: the re-run case runs in the simulator's shell only`
      )
    const real = both ? await judge(k) : await runInSimShell(k)
    expect(real.code).toBe(0)
    expect(real.log).toContain(
      'OK: containerd already runs with memlock unlimited (pid 1132), not restarted\n'
    )
    expect(real.log).toContain('OK: kubelet already runs with memlock unlimited (pid 2913), not restarted\n')
    expect(real.calls.filter(c => c[1] === 'restart')).toEqual([])
    expect(real.sleeps).toEqual([])
    expect(real.state).toMatchObject({ kubeletRestarts: 1, containerdRestarts: 1 })
    expect(real.files[IB_NODE_CONFIG_DONE_FILE]).toBe('ib_umad\nrdma_ucm\n')
  })

  it('ib-node-config setup stops at the first failing command, exits non-zero and writes no done file', async () => {
    const real = await judge(
      shipped(ibPod, setup, node(ofedReady), true, {
        flaky: {
          name: 'modprobe',
          failures: 1,
          err: 'modprobe: FATAL: Module ib_umad not found in directory /lib/modules/5.15.0-1089-azure\n'
        }
      })
    )
    expect(real.code).toBe(1)
    expect(real.log).toBe(
      '=== IB Node Configuration ===\nmodprobe: FATAL: Module ib_umad not found in directory /lib/modules/5.15.0-1089-azure\n'
    )
    expect(real.flakyRuns).toEqual([['ib_umad']])
    expect(real.calls).toEqual([])
    expect(real.state).toMatchObject({ kubeletRestarts: 0, containerdRestarts: 0 })
    expect(real.files[IB_NODE_CONFIG_DONE_FILE]).toBeUndefined()
  })

  it('ib-node-config setup fails its check when the IB modules are not loaded (no done file)', async () => {
    const real = await judge(
      shipped(ibPod, setup, node(ofedReady), true, {
        // an lsmod that lists nothing: the modules did not load
        flaky: { name: 'lsmod', failures: 0, err: '' }
      })
    )
    expect(real.code).toBe(1)
    expect(real.log).toContain(
      'OK: kubelet runs with memlock unlimited (pid 2913)\nFAIL: ib_umad not loaded\n'
    )
    expect(real.log).not.toContain('Setup Complete')
    expect(real.files[IB_NODE_CONFIG_DONE_FILE]).toBeUndefined()
  })

  it('ib-node-config keepalive', async () => {
    const real = await judge(shipped(ibPod, keepalive, node(), false))
    expect(real).toMatchObject({ code: 0, log: 'IB node config active\n', sleeps: ['infinity'] })
  })

  it('device plugin init container: ib-node-config already done', async () => {
    const real = await judge(
      shipped(
        dpPod,
        wait,
        node(hw => (hw.files[IB_NODE_CONFIG_DONE_FILE] = 'ib_umad\nrdma_ucm\n')),
        false
      )
    )
    expect(real).toMatchObject({ code: 0, log: 'ib-node-config has completed on this node\n', sleeps: [] })
  })

  it('device plugin init container: ib-node-config finishes while it waits', async () => {
    const real = await judge(
      shipped(dpPod, wait, node(), false, {
        onSleep: { after: 3, hostPath: IB_NODE_CONFIG_DONE_FILE, content: 'ib_umad\nrdma_ucm\n' }
      })
    )
    expect(real.code).toBe(0)
    expect(real.log).toBe(
      `waiting for ib-node-config to complete on this node (${IB_NODE_CONFIG_DONE_FILE})\nib-node-config has completed on this node\n`
    )
    expect(real.sleeps).toEqual(['5', '5', '5'])
  })

  it('device plugin init container: gives up after its bound with the reason', async () => {
    const real = await judge(shipped(dpPod, wait, node(), false))
    expect(real.code).toBe(1)
    expect(real.sleeps).toHaveLength(120)
    expect(real.log.trim().split('\n')).toEqual([
      `waiting for ib-node-config to complete on this node (${IB_NODE_CONFIG_DONE_FILE})`,
      `ib-node-config has not completed on this node after 600s (no ${IB_NODE_CONFIG_DONE_FILE}); check the ib-node-config pod on this node`
    ])
  })

  it('node probe on a set-up node: the same termination message from both shells, and the NIC-local GPUs', async () => {
    expect(shScript(probeContainer)).toBe(PROBE_SCRIPT)
    const hw = node(h => {
      h.ofedReady = true
      h.ibModulesLoaded = true
      h.gpuDriverReady = true
      h.nvidiaPeermemLoaded = true
      h.memlockUnlimited = false
    })
    const real = await judge(shipped(probe, probeContainer, hw, true))
    expect(real.code).toBe(0)
    expect(real.terminationLog).toBeDefined()
    // The message fits the kubelet's 4096 bytes with room to spare on an 8-NIC, 8-GPU node.
    expect(Buffer.byteLength(real.terminationLog!)).toBeLessThan(3000)
    expect(real.log).toBe(real.terminationLog)
    const facts = parseProbeOutput(NODE, real.terminationLog!)
    expect(facts).toMatchObject({ error: null, memlock: String(hw.memlockDefaultKiB), peermemLoaded: true })
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
    const real = await judge(shipped(probe, probeContainer, hw, true))
    expect(parseProbeOutput(NODE, real.terminationLog!).memlockUnlimited).toBe(true)
  })

  it('perftest client: retries until its server answers, arguments intact, its output in its own section', async () => {
    const argv = perftestArgv(settings, 'ib_write_bw', 'client', 'mlx5_ib3', 18518, 3, '10.244.1.7')
    expect(argv).toContain('--use_cuda=3')
    const script = sideScript('client', [{ index: 3, device: 'mlx5_ib3', argv }], 4)
    const client = (failures: number): ScriptCase =>
      bare('perftest', settings.benchmark.image, script, {
        pod: { metadata: { name: 'perftest-client' }, spec: {} },
        rdmaDevices: true,
        flaky: { name: 'ib_write_bw', failures, err: "Couldn't connect to 10.244.1.7:18518\n" }
      })
    const real = await judge(client(2))
    expect(real.code).toBe(0)
    expect(real.flakyRuns).toEqual(Array(3).fill(argv.slice(1)))
    expect(real.sleeps).toEqual(['2', '2'])
    expect(splitSections(real.log)).toEqual(new Map([[3, { text: '', exitCode: 0 }]]))
    const gaveUp = await judge(client(9))
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
    const real = await judge(
      bare('perftest', settings.benchmark.image, script, {
        pod: { metadata: { name: 'perftest-server' }, spec: {} },
        rdmaDevices: true
      })
    )
    expect(real.code).toBe(0)
    const sections = splitSections(real.log)
    expect([...sections.keys()]).toEqual([0, 1])
    for (const x of sections.values())
      expect(x).toEqual({ text: 'sh: 1: ib_write_bw: not found', exitCode: 127 })
  })
})

suite(`set -e under ${SH} and under the simulator's shell`, () => {
  const cases: Array<[string, string, number, string]> = [
    ['stops at a failing command', 'set -e\necho a\nfalse\necho b', 1, 'a\n'],
    [
      'not in conditions, nor in an && / || list but its last command',
      'set -e\nif false; then echo t; fi\nfalse || echo o\nfalse && echo n\nwhile false; do :; done\necho end',
      0,
      'o\nend\n'
    ],
    ['the last command of an && list', 'set -e\ntrue && false\necho never', 1, ''],
    [
      'a pipeline by its last command',
      'set -e\nfalse | true\necho piped\ntrue | false\necho never',
      1,
      'piped\n'
    ],
    ['an assignment by its command substitution', 'set -e\nx=$(false)\necho never', 1, ''],
    [
      'inside a command substitution too',
      'x=$(set -e; echo hi; false; echo no)\necho "[$x] $?"',
      0,
      '[hi] 1\n'
    ],
    [
      'set +e turns it off; a new sh -c starts without it',
      "set -e\nset +e\nfalse\nsh -c 'false; echo inner'\necho after",
      0,
      'inner\nafter\n'
    ],
    [
      'inside loops and if bodies',
      'set -e\nfor i in 1 2; do echo $i; if true; then false; fi; done\necho never',
      1,
      '1\n'
    ]
  ]
  for (const [what, script, code, log] of cases)
    it(what, async () => {
      const real = await judge(bare('errexit', 'busybox', script))
      expect({ code: real.code, log: real.log }).toEqual({ code, log })
    })
})
