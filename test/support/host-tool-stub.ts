// A node tool (ibstat, lsmod, modprobe, systemctl, …) as a real program for scripts run by a real
// shell: bundled by test/support/real-shell.ts and called through small wrappers on PATH as
// `node host-tool-stub.mjs <tool> <args…>`, it answers with the simulator's own implementation
// of the tool (sim/kube/workloads/host-tools.ts) for the fake node whose state is a JSON file
// ($FAKE_NODE), reading host files from the fake root ($FAKE_ROOT), saving the state the tool
// changed (modules loaded, restarts, memlock) and the /proc files that follow from it, and
// appending `[tool, ...args]` to $FAKE_CALLS.
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { NodeHardware } from '../../sim/kube/hardware.js'
import { hostCommands, type PodView } from '../../sim/kube/workloads/host-tools.js'
import { writeHostProcFiles } from './fake-proc.js'

interface ViewFlags {
  podName: string
  /** Names of the devices whose /dev/infiniband files the container has. */
  verbsDevices: string[]
  gpus: boolean
  privileged: boolean
}

function hostFiles(root: string, dir = root, out: Record<string, string> = {}): Record<string, string> {
  if (!existsSync(dir)) return out
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) hostFiles(root, full, out)
    else out['/' + path.relative(root, full).split(path.sep).join('/')] = readFileSync(full, 'utf8')
  }
  return out
}

async function main(): Promise<number> {
  const [tool, ...args] = process.argv.slice(2)
  const statePath = process.env.FAKE_NODE!
  const root = process.env.FAKE_ROOT!
  const flags = JSON.parse(process.env.FAKE_VIEW ?? '{}') as ViewFlags
  appendFileSync(process.env.FAKE_CALLS!, JSON.stringify([tool, ...args]) + '\n')
  const hw = JSON.parse(readFileSync(statePath, 'utf8')) as NodeHardware
  // What the node's files are now: the fake root's /etc, as the real shell left it.
  hw.files = hostFiles(root, path.join(root, 'etc'))
  const view: PodView = {
    hw,
    podName: flags.podName,
    verbsDevices: hw.nics.filter(n => (flags.verbsDevices ?? []).includes(n.name)),
    gpus: flags.gpus,
    readFile: p => (existsSync(path.join(root, p)) ? readFileSync(path.join(root, p), 'utf8') : undefined),
    ...(flags.privileged ? { host: { mutate: fn => fn(hw), now: () => 0 } } : {})
  }
  const impl = hostCommands(view)[tool]
  if (!impl) {
    process.stderr.write(`sh: 1: ${tool}: not found\n`)
    return 127
  }
  let out = ''
  let err = ''
  const r = await impl([tool, ...args], '', { out: t => (out += t), err: t => (err += t) }, {})
  out += r.out ?? ''
  err += r.err ?? ''
  const { files: _files, ...state } = hw
  writeFileSync(statePath, JSON.stringify(state))
  writeHostProcFiles(root, hw)
  if (out) process.stdout.write(out)
  if (err) process.stderr.write(err)
  return r.code
}

main().then(
  code => process.exit(code),
  e => {
    process.stderr.write(`host-tool-stub: ${(e as Error).stack}\n`)
    process.exit(70)
  }
)
