// Verification and benchmark pods: probe pods print the node's real state in the tools' formats
// (ibstat, ibv_devinfo, ulimit -l, /proc/modules), perftest client/server pods produce parse-able
// perftest output from the link model or perftest's real error texts; and 1000 nodes at scale.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parseIbstat as parsePortStates } from '../../../src/parse/ibstat.js'
import { setExtendedResource } from '../../../sim/kube/controllers/node-resources.js'
import { checkPerftestArgv, perftestBuildOf } from '../../../sim/kube/workloads/perftest-params.js'
import { Shell } from '../../../sim/kube/workloads/shell.js'
import type { KubeObject } from '../../../sim/kube/store.js'
import type { NodeHardware } from '../../../sim/kube/hardware.js'
import {
  applyIbNodeConfig,
  applyNfdRule,
  applyNicClusterPolicy,
  FIXTURES,
  gpuPool,
  installNetworkOperator,
  isReady,
  makeWorld,
  networkOperatorWorld,
  systemPool,
  type World
} from '../../support/controllers-world.js'

let w: World

const IBTOOLS = 'ghcr.io/azure/aks-rdma-infiniband/ibtools:latest'

/** Nodes as they are after a working setup (OFED, memlock, peermem, resources). */
function readyNodes(o: { memlock?: boolean; peermem?: boolean } = {}) {
  for (const h of w.hardware.all()) {
    w.hardware.update(h.nodeName, x => {
      x.ofedReady = true
      x.ibModulesLoaded = true
      x.gpuDriverReady = true
      // The R580 driver's default: the open kernel modules (KERNEL_MODULE_TYPE auto).
      x.gpuKernelModules = 'open'
      x.memlockUnlimited = o.memlock ?? true
      x.nvidiaPeermemLoaded = o.peermem ?? true
      // What the device plugin's selectors (vendors 15b3, linkTypes infiniband) matched.
      x.rdmaMatchedDevices['rdma/hca_shared_devices_a'] = x.nics
        .filter(n => n.linkLayer === 'InfiniBand')
        .map(n => n.name)
    })
    setExtendedResource(w.controllers.ctx, h.nodeName, 'rdma/hca_shared_devices_a', 1000)
    setExtendedResource(w.controllers.ctx, h.nodeName, 'nvidia.com/gpu', h.spec.gpus)
  }
}

function pod(
  name: string,
  node: string,
  command: string[],
  o: { rdma?: boolean; gpu?: boolean | number; image?: string; ipcLock?: boolean } = {}
): KubeObject {
  const limits: Record<string, string> = {}
  if (o.rdma !== false) limits['rdma/hca_shared_devices_a'] = '1'
  if (o.gpu) limits['nvidia.com/gpu'] = String(o.gpu === true ? 1 : o.gpu)
  return w.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'rdma-bench' } },
    spec: {
      restartPolicy: 'Never',
      nodeSelector: { 'kubernetes.io/hostname': node },
      containers: [
        {
          name: 'main',
          image: o.image ?? IBTOOLS,
          command,
          resources: { limits },
          ...(o.ipcLock ? { securityContext: { capabilities: { add: ['IPC_LOCK'] } } } : {})
        }
      ]
    }
  })
}

const phase = (name: string) => w.get('pods', 'default', name)?.status?.phase
const done = (name: string) => phase(name) === 'Succeeded' || phase(name) === 'Failed'
const logOf = (name: string) => w.controllers.logs('default', name) ?? ''
const node = (i: number) => w.cluster.nodeNameOf('gpu', i)

/** Runs a perftest server on node a and a client on node b; returns both logs. */
async function perftest(
  tool: string,
  args: string[],
  a = 0,
  b = 1,
  o: Parameters<typeof pod>[3] = {},
  serverArgs = args
) {
  const srv = `srv-${Math.random().toString(36).slice(2, 7)}`
  const cli = `cli-${Math.random().toString(36).slice(2, 7)}`
  pod(srv, node(a), [tool, ...serverArgs], o)
  const ip = await w.waitFor(
    'server running',
    () =>
      (phase(srv) === 'Running' ? w.get('pods', 'default', srv)!.status.podIP : undefined) ||
      (done(srv) ? 'failed' : undefined)
  )
  pod(cli, node(b), [tool, ...args, ip], o)
  await w.waitFor('client done', () => done(cli))
  if (phase(cli) === 'Succeeded') await w.waitFor('server done', () => done(srv))
  return { client: logOf(cli), server: logOf(srv), clientPhase: phase(cli), serverPhase: phase(srv) }
}

/** perftest's row rule: ≥ 5 numeric tokens starting with an integer size. */
function bwRows(log: string): number[][] {
  return log
    .split('\n')
    .map(l => l.trim().split(/\s+/))
    .filter(t => t.length === 5 && t.every(x => /^\d+(\.\d+)?$/.test(x)) && /^\d+$/.test(t[0]))
    .map(t => t.map(Number))
}

function parseIbstat(text: string): Array<Record<string, string>> {
  return text
    .split(/^CA '/m)
    .slice(1)
    .map(block => {
      const rec: Record<string, string> = { name: block.slice(0, block.indexOf("'")) }
      for (const m of block.matchAll(/^\s+([A-Za-z ]+):\s*(.*)$/gm)) rec[m[1].trim()] = m[2].trim()
      return rec
    })
}

describe('probe pods', () => {
  it('print ibstat / ulimit -l / /proc/modules / ibv_devinfo from the node state, then Succeed', async () => {
    w = makeWorld({ nodes: { degraded: [{ index: 0, nic: 2, gbps: 200 }] } })
    w.cluster.addPool(gpuPool('gpu', 1))
    readyNodes()
    pod('probe', node(0), [
      'sh',
      '-c',
      'ibstat; echo ---; ulimit -l; echo ---; cat /proc/modules; echo ---; ibv_devinfo -d mlx5_ib0'
    ])
    await w.waitFor('done', () => done('probe'))
    expect(phase('probe')).toBe('Succeeded')
    const [ibstat, ulimit, modules, devinfo] = logOf('probe').split('---\n')
    const cas = parseIbstat(ibstat)
    expect(cas.map(c => c.name)).toEqual(['mlx5_an0', ...Array.from({ length: 8 }, (_, i) => `mlx5_ib${i}`)])
    expect(cas[0]).toMatchObject({ 'Link layer': 'Ethernet', 'CA type': 'MT4122' })
    expect(cas.slice(1).map(c => c.Rate)).toEqual(['400', '400', '200', '400', '400', '400', '400', '400'])
    expect(
      cas
        .slice(1)
        .every(
          c =>
            c.State === 'Active' &&
            c['Physical state'] === 'LinkUp' &&
            c['Link layer'] === 'InfiniBand' &&
            c['CA type'] === 'MT4126'
        )
    ).toBe(true)
    // Same keys, same order as a real ibstat block.
    const fixtureKeys = [
      ...readFileSync(
        path.join(FIXTURES, 'ibstat/01-ibstat-azure-hb120v3-hdr200-mlx5_ib0.txt'),
        'utf8'
      ).matchAll(/^\s+([A-Za-z ]+\d?):/gm)
    ].map(m => m[1])
    const ourKeys = [...ibstat.split(/^CA '/m)[2].matchAll(/^\s+([A-Za-z ]+\d?):/gm)].map(m => m[1])
    expect(ourKeys).toEqual(fixtureKeys)
    expect(ulimit.trim()).toBe('unlimited')
    expect(modules).toMatch(/^nvidia_peermem \d+ \d+ - Live 0x0+/m)
    expect(modules).toMatch(/^ib_umad /m)
    expect(devinfo).toMatch(/^hca_id:\tmlx5_ib0$/m)
    expect(devinfo).toMatch(/link_layer:\s+InfiniBand/)
    expect(devinfo).toMatch(/state:\s+PORT_ACTIVE \(4\)/)
  })

  it('reflect a node without the setup: memlock at the image default (64 KiB on Ubuntu 22.04), no nvidia_peermem, no IB VFs on a noInfiniband node', async () => {
    w = makeWorld({ nodes: { noInfiniband: [1] } })
    w.cluster.addPool(gpuPool('gpu', 2))
    readyNodes({ memlock: false, peermem: false })
    pod('p0', node(0), ['sh', '-c', 'ulimit -l && grep -c nvidia_peermem /proc/modules || echo missing'])
    pod('p1', node(1), ['sh', '-c', 'ibstat -l; ibv_devinfo | grep -c "link_layer:.*InfiniBand"'])
    pod('p2', node(0), ['sh', '-c', 'ibv_devinfo'], { rdma: false })
    await w.waitFor('done', () => ['p0', 'p1', 'p2'].every(done))
    expect(logOf('p0')).toBe('64\n0\nmissing\n')
    expect(logOf('p1')).toBe('mlx5_an0\n0\n')
    expect(phase('p1')).toBe('Failed') // grep -c found nothing: exit 1
    expect(logOf('p2')).toBe('No IB devices found\n')
  })

  it('on a node without RDMA devices the port-state tools print their own no-device reports, which parse as such', async () => {
    w = makeWorld()
    w.cluster.addPool(systemPool(1))
    w.cluster.addPool(gpuPool('gpu', 1))
    readyNodes()
    // A node where no RDMA driver is bound: not even the accelerated-networking VF shows.
    const plain = w.cluster.nodeNameOf('system', 0)
    w.hardware.update(plain, h => (h.nics = []))
    const run = (name: string, on: string, cmd: string) => pod(name, on, ['sh', '-c', cmd], { rdma: false })
    run('ibstatus', plain, 'ibstatus')
    run('ibstat', plain, 'ibstat')
    run('named', node(0), 'ibstatus mlx5_ib0 mlx5_ib9')
    run('ibstat-named', node(0), 'ibstat mlx5_ib9')
    await w.waitFor('done', () => ['ibstatus', 'ibstat', 'named', 'ibstat-named'].every(done))
    // infiniband-diags' ibstatus: `fatal` echoes on stdout and exits 255; ibstat prints nothing, exit 0.
    expect([logOf('ibstatus'), phase('ibstatus')]).toEqual(['Fatal error:  No devices\n', 'Failed'])
    expect([logOf('ibstat'), phase('ibstat')]).toEqual(['', 'Succeeded'])
    expect(logOf('named')).toMatch(
      /^Infiniband device 'mlx5_ib0' port 1 status:\n[\s\S]*\nFatal error: {2}device 'mlx5_ib9': sys files not found \(\/sys\/class\/infiniband\/mlx5_ib9\/ports\)\n$/
    )
    for (const name of ['ibstatus', 'ibstat', 'ibstat-named'])
      expect(parsePortStates(logOf(name)).error?.kind).toBe('no-devices')
  })

  it('end to end: after the real setup a probe sees unlimited memlock and ib_umad', async () => {
    w = networkOperatorWorld({ gpus: 1 })
    applyIbNodeConfig(w)
    await w.waitFor('setup', () => {
      const h = w.hardware.all()[0]
      return h.ofedReady && h.memlockUnlimited
    })
    pod('probe', node(0), ['sh', '-c', 'ulimit -l; lsmod | grep ib_umad'], { rdma: false })
    await w.waitFor('done', () => done('probe'))
    expect(logOf('probe')).toMatch(/^unlimited\nib_umad\s+\d+\s+0\n$/)
  })
})

describe('perftest pods', () => {
  it('ib_write_bw -a --report_gbits between two NDR nodes: 23 rows, ~97–99% of 400 Gb/s at 8 MiB', async () => {
    w = makeWorld()
    w.cluster.addPool(gpuPool('gpu', 2))
    readyNodes()
    const r = await perftest('ib_write_bw', [
      '-d',
      'mlx5_ib0',
      '-a',
      '-F',
      '--report_gbits',
      '-q',
      '1',
      '-n',
      '5000'
    ])
    expect(r.clientPhase).toBe('Succeeded')
    expect(r.serverPhase).toBe('Succeeded')
    expect(r.client).toMatch(/^\s+RDMA_Write BW Test$/m)
    expect(r.client).toMatch(/Device\s+: mlx5_ib0/)
    expect(r.client).toMatch(
      / #bytes\s+#iterations\s+BW peak\[Gb\/sec\]\s+BW average\[Gb\/sec\]\s+MsgRate\[Mpps\]/
    )
    const rows = bwRows(r.client)
    expect(rows).toHaveLength(23)
    expect(rows[0][0]).toBe(2)
    const last = rows[22]
    expect(last[0]).toBe(8388608)
    expect(last[1]).toBe(5000)
    expect(last[3] / 400).toBeGreaterThan(0.965)
    expect(last[3] / 400).toBeLessThan(0.99)
    expect(rows.map(x => x[3])).toEqual(
      [...rows.map(x => x[3])].sort((a, b) => a - b).map((_, i) => rows[i][3])
    ) // grows with size
    expect(rows[5][3]).toBeLessThan(rows[15][3])
    expect(r.server).toMatch(/\* Waiting for client to connect\.\.\. \*/)
    expect(bwRows(r.server)).toHaveLength(23)
  })

  it('uses the slower of the two ports, per device (degraded NIC)', async () => {
    w = makeWorld({ nodes: { degraded: [{ index: 1, nic: 3, gbps: 200 }] } })
    w.cluster.addPool(gpuPool('gpu', 2))
    readyNodes()
    const slow = await perftest('ib_write_bw', ['-d', 'mlx5_ib3', '-s', '8388608', '--report_gbits'])
    const fast = await perftest('ib_write_bw', ['-d', 'mlx5_ib2', '-s', '8388608', '--report_gbits'])
    const avg = (log: string) => bwRows(log)[0][3]
    expect(avg(slow.client)).toBeGreaterThan(190)
    expect(avg(slow.client)).toBeLessThan(200)
    expect(avg(fast.client)).toBeGreaterThan(385)
  })

  it('ib_write_lat: latency table in perftest’s columns', async () => {
    w = makeWorld()
    w.cluster.addPool(gpuPool('gpu', 2))
    readyNodes()
    const r = await perftest('ib_write_lat', ['-d', 'mlx5_ib0', '-F'])
    expect(r.clientPhase).toBe('Succeeded')
    expect(r.client).toMatch(/^\s+RDMA_Write Latency Test$/m)
    const header = r.client.split('\n').find(l => l.includes('#bytes'))!
    expect(header.trim().split(/\s{2,}/)).toEqual([
      '#bytes #iterations',
      't_min[usec]',
      't_max[usec]',
      't_typical[usec]',
      't_avg[usec]',
      't_stdev[usec]',
      '99% percentile[usec]',
      '99.9% percentile[usec]'
    ])
    const row = r.client
      .split('\n')
      .map(l => l.trim().split(/\s+/))
      .find(t => t.length === 9 && t.every(x => /^[\d.]+$/.test(x)))!
    const [bytes, iters, tMin, , tTyp, tAvg] = row.map(Number)
    expect([bytes, iters]).toEqual([2, 1000])
    expect(tAvg).toBeGreaterThan(1)
    expect(tAvg).toBeLessThan(2.5)
    expect(tMin).toBeLessThanOrEqual(tTyp)
    expect(r.client.split('\n').some(l => l.includes('\t'))).toBe(true)
  })

  it('--use_cuda needs nvidia_peermem, --use_cuda_dmabuf the open kernel modules, each failing as perftest does; no CUDA build → usage error', async () => {
    w = makeWorld()
    w.cluster.addPool(gpuPool('gpu', 2))
    readyNodes()
    const bw = ['-d', 'mlx5_ib0', '-s', '8388608', '--report_gbits']
    // All 8 GPUs: CUDA device 0 is the GPU at 0001:00:00.0, behind mlx5_ib0's own PCIe switch.
    const gdr = await perftest('ib_write_bw', [...bw, '--use_cuda=0'], 0, 1, { gpu: 8 })
    expect(gdr.client).toMatch(/device name = \[NVIDIA H100 80GB HBM3\]/)
    expect(gdr.client).toContain(
      'CUDA device 0: PCIe address is 0001:00:00\nCUDA device 1: PCIe address is 0002:00:00'
    )
    expect(bwRows(gdr.client)[0][3] / 400).toBeGreaterThan(0.95)
    const set = (edit: (x: NodeHardware) => void) => {
      for (const h of w.hardware.all()) w.hardware.update(h.nodeName, edit)
    }
    // No nvidia_peermem: ibv_reg_mr cannot pin GPU memory, and perftest stages nothing through host memory.
    set(x => (x.nvidiaPeermemLoaded = false))
    const noPeermem = await perftest('ib_write_bw', [...bw, '--use_cuda=0'], 0, 1, { gpu: 8 })
    expect(noPeermem.clientPhase).toBe('Failed')
    expect(noPeermem.client).toContain(
      "Couldn't allocate MR\nfailed to create mr\nFailed to create MR\n Couldn't create IB resources"
    )
    expect(bwRows(noPeermem.client)).toEqual([])
    // DMA-BUF needs no nvidia_peermem: the open kernel modules export GPU memory, at line rate.
    const dmabuf = await perftest('ib_write_bw', [...bw, '--use_cuda=0', '--use_cuda_dmabuf'], 0, 1, {
      gpu: 8
    })
    expect(dmabuf.clientPhase).toBe('Succeeded')
    expect(bwRows(dmabuf.client)[0][3] / 400).toBeGreaterThan(0.95)
    // The proprietary modules cannot (CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED 0).
    set(x => (x.gpuKernelModules = 'proprietary'))
    const proprietary = await perftest('ib_write_bw', [...bw, '--use_cuda=0', '--use_cuda_dmabuf'], 0, 1, {
      gpu: 8
    })
    expect(proprietary.clientPhase).toBe('Failed')
    expect(proprietary.client).toContain(
      "DMA-BUF is not supported on this GPU\nFailed to init memory\n Couldn't create IB resources"
    )
    pod('nocuda', node(0), ['ib_write_bw', '-d', 'mlx5_ib0', '--use_cuda=0'], {
      image: 'example.com/perftest-nocuda:4.5'
    })
    await w.waitFor('done', () => done('nocuda'))
    expect(phase('nocuda')).toBe('Failed')
    expect(logOf('nocuda')).toMatch(
      /^ib_write_bw: unrecognized option '--use_cuda=0'\n Invalid Command or flag\./
    )
    expect(logOf('nocuda')).toContain(
      'Usage:\n  ib_write_bw            start a server and wait for connection'
    )
  })

  it('GPUDirect follows the ND H100 v5 PCIe topology: the NIC-local GPU at line rate, another switch or socket markedly slower', async () => {
    w = makeWorld()
    w.cluster.addPool(gpuPool('gpu', 2))
    readyNodes()
    const gbps = async (device: string, cuda: number, gpus: number | boolean = 8) => {
      const r = await perftest(
        'ib_write_bw',
        ['-d', device, '-s', '8388608', '--report_gbits', `--use_cuda=${cuda}`],
        0,
        1,
        { gpu: gpus }
      )
      return bwRows(r.client)[0][3]
    }
    // mlx5_ib5 (0106:00:00.0, NUMA 1) shares its switch with GPU 5 (000a:00:00.0).
    const local = await gbps('mlx5_ib5', 5)
    const sameSocket = await gbps('mlx5_ib5', 4)
    const otherSocket = await gbps('mlx5_ib5', 1)
    expect(local / 400).toBeGreaterThan(0.95)
    expect(sameSocket / 400).toBeLessThan(0.9 * 0.75)
    expect(otherSocket).toBeLessThan(sameSocket)
    // A container given one GPU sees it as CUDA device 0: which GPU that is, the device plugin
    // decides — over eight NICs, most land on a GPU behind another switch and fail 0.9 × 400.
    const oneGpu = await Promise.all(Array.from({ length: 8 }, (_, i) => gbps(`mlx5_ib${i}`, 0, 1)))
    expect(oneGpu.filter(x => x < 0.9 * 400).length).toBeGreaterThanOrEqual(4)
    // A device index the container does not have is perftest's own error.
    const none = await perftest('ib_write_bw', ['-d', 'mlx5_ib0', '--use_cuda=3'], 0, 1, { gpu: 1 })
    expect(none.server).toMatch(/No such device ID \(3\) exists in system/)
  })

  it('fails with perftest’s own errors: no rdma resource, no IB device, memlock, nobody listening', async () => {
    w = makeWorld({ nodes: { noInfiniband: [2] } })
    w.cluster.addPool(gpuPool('gpu', 3))
    readyNodes()
    const noRes = await perftest('ib_write_bw', ['-d', 'mlx5_ib0'], 0, 1, { rdma: false })
    expect(noRes.server).toMatch(
      /^ Did not detect devices \n If device exists, check if driver is up\n Unable to find the Infiniband\/RoCE device\n$/
    )
    expect(noRes.serverPhase).toBe('Failed')
    expect(noRes.client).toMatch(/Did not detect devices/)
    pod('noib', node(2), ['ib_write_bw', '-d', 'mlx5_ib0'])
    await w.waitFor('noib', () => done('noib'))
    // The device plugin matched no device there: the pod has none.
    expect(logOf('noib')).toBe(
      ' Did not detect devices \n If device exists, check if driver is up\n Unable to find the Infiniband/RoCE device\n'
    )
    pod('lonely', node(0), ['ib_write_bw', '-d', 'mlx5_ib0', '10.244.9.9'])
    await w.waitFor('lonely', () => done('lonely'))
    expect(logOf('lonely')).toMatch(
      /^Couldn't connect to 10\.244\.9\.9:18515\nUnable to open file descriptor for socket connection Unable to init the socket connection\n$/
    )
    for (const h of w.hardware.all()) w.hardware.update(h.nodeName, x => (x.memlockUnlimited = false))
    const mr = await perftest('ib_write_bw', ['-d', 'mlx5_ib0', '-a', '--report_gbits'])
    expect(mr.server).toMatch(/Couldn't allocate MR/)
    expect(mr.serverPhase).toBe('Failed')
    const withCap = await perftest('ib_write_bw', ['-d', 'mlx5_ib0', '-a', '--report_gbits'], 0, 1, {
      ipcLock: true
    })
    expect(withCap.clientPhase).toBe('Succeeded')
  })

  it('parses perftest command lines (glued values, flags it only accepts, host)', () => {
    const v = checkPerftestArgv(
      [
        'ib_write_bw',
        '-d',
        'mlx5_ib3',
        '-p18516',
        '-x',
        '0',
        '-F',
        '--report_gbits',
        '-s',
        '1048576',
        '-D',
        '10',
        '--perform_warm_up',
        '-q',
        '2',
        '10.0.0.5'
      ],
      perftestBuildOf('docker.io/mellanox/cuda-perftest:latest')
    )
    expect(v.ok && v.options).toMatchObject({
      device: 'mlx5_ib3',
      port: 18516,
      size: 1048576,
      duration: 10,
      qps: 2,
      gbits: true,
      warmUp: true,
      host: '10.0.0.5'
    })
  })
})

describe('the container shell', () => {
  it('runs loops, conditionals, variables, pipes, command substitution and redirections', async () => {
    let out = ''
    const sh = new Shell({
      commands: {
        seq: argv => ({
          out: Array.from({ length: Number(argv[1]) }, (_, i) => `${i + 1}\n`).join(''),
          code: 0
        }),
        upper: (_argv, stdin) => ({ out: stdin.toUpperCase(), code: 0 })
      },
      env: { NAME: 'world' },
      io: { out: t => (out += t), err: t => (out += `ERR:${t}`) },
      sleep: async () => {}
    })
    const code = await sh.run(`
      # comment
      echo "hello $NAME" 'and $NAME'
      for i in a b c; do echo "item $i"; done
      if false; then echo no; else echo yes; fi
      n=""
      until [ "$n" = "xxx" ]; do n="\${n}x"; done
      echo "n=$n"
      shout=$(echo "pipe $NAME" | upper)
      echo "$shout"
      seq 2 | upper 2>&1
      echo hidden > /dev/null
      [ -z "$UNSET" ] && echo empty
      missing-tool || echo "exit=$?"
      exit 3
    `)
    expect(code).toBe(3)
    expect(out).toBe(
      'hello world and $NAME\nitem a\nitem b\nitem c\nyes\nn=xxx\nPIPE WORLD\n1\n2\nempty\nERR:sh: 1: missing-tool: not found\nexit=127\n'
    )
  })
})

describe('scale', () => {
  it('1000 RDMA nodes: all created; NFD, MOFED and ib-node-config converge on all of them', async () => {
    w = makeWorld({ kube: { timeScale: 0.001, delays: { mofed: '300s', gpuDriver: '240s', default: '5s' } } })
    w.cluster.addPool(gpuPool('gpu', 1000))
    expect(w.list('nodes')).toHaveLength(1000)
    installNetworkOperator(w)
    applyNfdRule(w)
    applyNicClusterPolicy(w)
    applyIbNodeConfig(w)
    // No real-time deadline: the simulated clock jumps whenever the store stands still.
    await w.settle('all 1000 nodes ready', () =>
      w.hardware.all().every(h => h.ofedReady && h.memlockUnlimited && h.kubeletRestarts === 1)
    )
    await w.settle(
      'labels',
      () => w.list('nodes', { labelSelector: 'network.nvidia.com/operator.mofed.wait=false' }).length === 1000
    )
    const ds = w.list(
      'daemonsets',
      { namespace: 'network-operator', labelSelector: 'nvidia.com/ofed-driver' },
      'apps'
    )
    expect(ds).toHaveLength(1)
    await w.settle(
      'ds status',
      () => w.get('daemonsets', 'network-operator', ds[0].metadata.name, 'apps')!.status?.numberReady === 1000
    )
    expect(
      w
        .list('pods', { namespace: 'network-operator', labelSelector: 'nvidia.com/ofed-driver' })
        .filter(isReady)
    ).toHaveLength(1000)
    expect(w.errors).toEqual([])
    expect(w.hardware.all().every(h => h.kubeletRestarts === 1)).toBe(true)
  }, 600_000)
})
