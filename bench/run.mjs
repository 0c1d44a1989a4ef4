// Benchmarks that print figures (never pass/fail on time): run with `npm run bench [-- NAME ...]`.
//   world   — a 1000-node simulated world: start-up time, paginated node listing, memory.
//   apply   — the converged re-run (after a fresh apply, not counted) on 2-, 200- and 1000-node
//             worlds at a fixed timeScale: its Kubernetes requests, mutating requests and wall
//             time (steps), side by side; then how fast dist/index.js reaches its first log line.
//   rollout — sequential vs pipelined rollout (2, 8, 64 nodes, guide component times).
//   standins — what one call of the simulator's helm and az stand-ins costs (a simulated run
//             starts one process per helm command): wall time and CPU, cold and with the
//             compile cache warm.
// Everything runs the committed dist/cli.js, exactly as a user would.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const cli = path.join(root, 'dist', 'cli.js')
const work = mkdtempSync(path.join(tmpdir(), 'aks-rdma-bench-'))

function scenario(name, text) {
  const file = path.join(work, `${name}.yaml`)
  writeFileSync(file, text)
  return file
}

function runCli(args, { untilLine } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', b => {
      out += b
      if (untilLine && out.includes(`\n${untilLine}\n`))
        resolve({ child, out, ms: performance.now() - started })
    })
    child.stderr.on('data', b => (out += b))
    child.on('error', reject)
    child.on('close', code => resolve({ code, out, ms: performance.now() - started }))
  })
}

function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024
}

async function benchWorld() {
  const file = scenario(
    'world-1000',
    'kube:\n  timeScale: 0.001\nazure:\n  existingPools:\n    - { name: rdmapool, vmSize: Standard_ND96isr_H100_v5, count: 1000, osSKU: Ubuntu, gpuDriver: None }\n'
  )
  const dir = path.join(work, 'world')
  const up = await runCli(['sim', 'up', '--scenario', file, '--dir', dir], { untilLine: 'READY' })
  const env = Object.fromEntries(
    up.out
      .split('\n')
      .filter(l => /^[A-Z_]+=/.test(l))
      .map(l => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)])
  )
  const { KubeConfig, CoreV1Api } = await import('@kubernetes/client-node')
  process.env.NODE_EXTRA_CA_CERTS = env.NODE_EXTRA_CA_CERTS
  const tls = await import('node:tls')
  tls.setDefaultCACertificates([
    ...tls.getCACertificates('default'),
    readFileSync(env.NODE_EXTRA_CA_CERTS, 'utf8')
  ])
  const kc = new KubeConfig()
  kc.loadFromFile(env.KUBECONFIG)
  const api = kc.makeApiClient(CoreV1Api)
  const t0 = performance.now()
  let pages = 0
  let nodes = 0
  let cont
  do {
    const page = await api.listNode({ limit: 500, _continue: cont })
    pages++
    nodes += page.items.length
    cont = page.metadata?._continue
  } while (cont)
  const listMs = performance.now() - t0
  const rss = rssMiB(up.child.pid)
  up.child.kill('SIGTERM')
  console.log('world (1000 RDMA nodes + 2 system nodes)')
  console.log(`  start-up to READY:        ${(up.ms / 1000).toFixed(2)} s`)
  console.log(`  list nodes (limit 500):   ${nodes} nodes in ${pages} pages, ${listMs.toFixed(0)} ms`)
  console.log(`  simulator memory (RSS):   ${rss.toFixed(0)} MiB`)
}

async function simulateRuns(
  name,
  nodeCount,
  extra = [],
  scenarioText = 'kube:\n  timeScale: 0.001\n',
  runs = 2
) {
  const file = scenario(name, scenarioText)
  const report = path.join(work, `${name}.json`)
  const r = await runCli([
    'simulate',
    '--scenario',
    file,
    '--node-count',
    String(nodeCount),
    '--benchmark',
    'false',
    '--runs',
    String(runs),
    '--report',
    report,
    ...extra
  ])
  if (r.code !== 0) throw new Error(`${name}: simulate exited ${r.code}\n${r.out.slice(-3000)}`)
  const json = JSON.parse(readFileSync(report, 'utf8'))
  return { wallMs: r.ms, runs: json.runs ?? [json] }
}

function runFigures(run) {
  const first = Date.parse(run.steps[0].startedAt)
  const last = Math.max(...run.steps.map(s => Date.parse(s.finishedAt)))
  const req = run.sim.requests
  return {
    seconds: ((last - first) / 1000).toFixed(1),
    requests: `${req.total} (ARM ${req.arm.total}, kube ${req.kube.total})`,
    mutating: `${req.mutating} (ARM ${req.arm.mutating}, kube ${req.kube.mutating}: ${
      Object.entries(req.kube.mutatingByResource)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none'
    })`,
    helm: `${run.sim.helm.installs} installs, ${run.sim.helm.upgrades} upgrades`,
    restarts: Object.values(run.sim.kubeletRestarts).reduce((a, b) => a + b, 0)
  }
}

const APPLY_NODES = [2, 200, 1000]

/** Milliseconds from spawning `node <file>` (no network) to its first stdout line. */
function firstLineMs(file, env = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    // Any network access is refused (the action would try to sign in right after its first line).
    const child = spawn(
      process.execPath,
      ['--import', path.join(root, 'test/support/no-network.mjs'), file],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
        env: { PATH: process.env.PATH, HOME: process.env.HOME, RUNNER_TEMP: work, ...env }
      }
    )
    let out = ''
    child.stdout.on('data', b => {
      out += b
      if (out.includes('\n')) {
        resolve({ ms: performance.now() - started, line: out.slice(0, out.indexOf('\n')) })
        child.kill()
      }
    })
    child.on('error', reject)
    child.on('close', () => resolve({ ms: NaN, line: out }))
  })
}

const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function benchStartup() {
  const inputs = {
    'INPUT_CLIENT-ID': '22222222-2222-2222-2222-222222222222',
    'INPUT_TENANT-ID': '11111111-1111-1111-1111-111111111111',
    'INPUT_SUBSCRIPTION-ID': '00000000-0000-0000-0000-000000000000',
    'INPUT_RESOURCE-GROUP': 'rg',
    'INPUT_CLUSTER-NAME': 'aks1'
  }
  const bare = path.join(work, 'bare.mjs')
  writeFileSync(bare, "console.log('hello')\n")
  const action = []
  const node = []
  let line = ''
  for (let i = 0; i < 7; i++) {
    const r = await firstLineMs(path.join(root, 'dist', 'index.js'), inputs)
    action.push(r.ms)
    line = r.line
    node.push((await firstLineMs(bare)).ms)
  }
  console.log(
    `  start-up: dist/index.js prints its first log line after ${median(action).toFixed(0)} ms (median of 7; bare node: ${median(node).toFixed(0)} ms): ${line}`
  )
}

async function benchApply() {
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
  console.log(
    `apply: the converged re-run (after a fresh apply, not counted), timeScale 0.001, benchmark off (load average ${load})`
  )
  // Token lifetimes are simulated time: at this timeScale GitHub's 5-minute ID token would last 0.3 s
  // of real time, less than a busy 1000-node world takes to answer.
  const text =
    'kube:\n  timeScale: 0.001\nazure:\n  tokens: { oidcLifetime: 3600s, accessTokenLifetime: 36000s }\nsetup:\n  apply: true\n'
  const rows = []
  for (const n of APPLY_NODES) {
    const { runs } = await simulateRuns(`apply-${n}`, n, [], text, 1)
    const run = runs[0]
    const f = runFigures(run)
    const kube = run.sim.requests.kube
    rows.push({ n, kube, f, result: run.result })
    console.log(
      `  ${String(n).padStart(4)} nodes: ${String(kube.total).padStart(3)} Kubernetes requests, ${kube.mutating} mutating (${
        Object.entries(kube.mutatingByResource)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ') || 'none'
      }), wall ${f.seconds} s; result ${run.result}; helm ${f.helm}; kubelet restarts ${f.restarts}`
    )
  }
  console.log('')
  console.log('  | nodes | Kubernetes requests | mutating | wall (steps) |')
  console.log('  |---|---|---|---|')
  for (const r of rows) console.log(`  | ${r.n} | ${r.kube.total} | ${r.kube.mutating} | ${r.f.seconds} s |`)
  const base = Number(rows[0].f.seconds)
  for (const r of rows.slice(1))
    console.log(
      `  ${r.n} nodes: ${(Number(r.f.seconds) / base).toFixed(2)}× the wall time of ${rows[0].n} nodes`
    )
  await benchStartup()
}

// The time scale is fixed and large enough that the action's own real-time costs (node and helm
// processes, API round trips: a few real seconds) weigh what they would in a real run (a minute or
// two) rather than hours: at 0.002 one real second would be eight simulated minutes.
const ROLLOUT_TIME_SCALE = 0.05

async function benchRollout() {
  const ts = ROLLOUT_TIME_SCALE
  const text =
    `kube:\n  timeScale: ${ts}\n  delays: { mofed: 300s, gpuDriver: 240s, default: 5s }\n` +
    'azure:\n  feature: { state: Registered }\n  poolProvisioning: { duration: 600s, result: Succeeded }\nnodes:\n  joinSpread: 120s\n'
  console.log(
    `rollout (simulated: pool 600 s, OFED 300 s, GPU driver 240 s, nodes joining over 120 s; timeScale ${ts};`
  )
  console.log('  time from the first step to the last readiness condition, verification excluded)')
  for (const n of [2, 8, 64]) {
    const figures = {}
    for (const rollout of ['sequential', 'pipelined']) {
      const { runs } = await simulateRuns(`rollout-${rollout}-${n}`, n, ['--rollout', rollout], text, 1)
      const run = runs[0]
      const first = Date.parse(run.steps[0].startedAt)
      const ready = Math.max(...run.steps.filter(s => s.name !== 'verify').map(s => Date.parse(s.finishedAt)))
      const restarts = Object.values(run.sim.kubeletRestarts)
      const checks = run.checks ?? []
      figures[rollout] = {
        seconds: (ready - first) / 1000 / ts,
        restarts: `${restarts.reduce((a, b) => a + b, 0)} on ${restarts.filter(x => x > 0).length} nodes`,
        checks: `${checks.filter(c => c.status === 'pass').length}/${checks.length}`,
        result: run.result
      }
    }
    const { sequential: s, pipelined: p } = figures
    console.log(
      `  ${String(n).padStart(2)} nodes: sequential ${(s.seconds / 60).toFixed(1)} min, pipelined ${(p.seconds / 60).toFixed(1)} min (simulated), ratio ${(s.seconds / p.seconds).toFixed(2)}×` +
        `; kubelet restarts ${s.restarts} / ${p.restarts}; verify checks passing ${s.checks} / ${p.checks}; result ${s.result} / ${p.result}`
    )
  }
}

/** One `node dist/cli.js <args>` run: its exit code and wall time in ms. */
function timedRun(args, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [cli, ...args], { stdio: 'ignore', env })
    child.on('error', reject)
    child.on('close', code => resolve({ code, wall: performance.now() - started }))
  })
}

/**
 * The CPU (user + system, ms) of this process's waited-for children so far: /proc/self/stat's
 * cutime and cstime, in clock ticks of 10 ms (process.resourceUsage reports this process only).
 */
function childrenCpuMs() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')
  return (Number(fields[13]) + Number(fields[14])) * 10
}

async function benchStandins() {
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
  console.log(`standins: one call of each stand-in, median of 15 (load average ${load})`)
  for (const [name, args] of [
    ['helm', ['__helm', 'version']],
    ['az', ['__az', 'version']]
  ]) {
    for (const cache of ['cold', 'warm']) {
      const env = { ...process.env }
      const dir = mkdtempSync(path.join(work, `cache-${name}-`))
      env.NODE_COMPILE_CACHE = dir
      const walls = []
      const cpus = []
      if (cache === 'warm') await timedRun(args, env)
      for (let i = 0; i < 15; i++) {
        if (cache === 'cold') env.NODE_COMPILE_CACHE = mkdtempSync(path.join(work, `cache-${name}-`))
        const cpu0 = childrenCpuMs()
        const r = await timedRun(args, env)
        if (r.code !== 0) throw new Error(`${args.join(' ')} exited ${r.code}`)
        walls.push(r.wall)
        cpus.push(childrenCpuMs() - cpu0)
      }
      console.log(
        `  ${name} (${args.join(' ')}), compile cache ${cache}: ${median(walls).toFixed(0)} ms wall, ${median(cpus).toFixed(0)} ms CPU`
      )
    }
  }
}

const benches = { world: benchWorld, apply: benchApply, rollout: benchRollout, standins: benchStandins }
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(benches)
for (const name of wanted) {
  if (!benches[name]) throw new Error(`unknown bench "${name}" (${Object.keys(benches).join(', ')})`)
  await benches[name]()
}
