// The CLI as a user runs it (a child process of the shipped dist/cli.js): plan prints the full plan
// and JSON, bad inputs exit 2 with every problem and make no network access, exit codes, help
// generated from the input definitions (per command: the inputs that mode reads), strict flags,
// -o, --version, the package's bin, --inputs-file (and the --env-file Node reads itself refused),
// the parsers on files and stdin; hostile inputs (huge durations, devices, FIFOs, non-YAML files,
// URLs with credentials or control characters, an inputs file setting NODE_OPTIONS) exit 2 at once,
// naming the input, echoing nothing.
import { execFile, execFileSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { INPUTS, inputModes } from '../../../src/settings/input-definitions.js'
import { bundlePath } from '../../support/dist.js'
import { allComponents, clusterStack } from '../../support/components.js'
import { commandLikeLines } from '../../support/runner-commands.js'

const run = promisify(execFile)
const NO_NETWORK = path.resolve('test/support/no-network.mjs')

async function cli(
  args: string[],
  env: Record<string, string> = {},
  stdin?: string
): Promise<{ code: number; stdout: string; stderr: string }> {
  const bundle = bundlePath('cli')
  // Not Jest's NODE_OPTIONS either: the CLI runs as a user starts it, where an env file's
  // NODE_OPTIONS would not be overridden by one already in the environment.
  const cleanEnv = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('INPUT_') && !k.startsWith('GITHUB_') && k !== 'NODE_OPTIONS'
    )
  )
  const child = run(process.execPath, ['--import', NO_NETWORK, bundle, ...args], {
    env: { ...cleanEnv, ...env },
    timeout: 30_000
  })
  // A child that exits before reading (e.g. a refused command line) closes the pipe:
  // EPIPE on its stdin is that exit, which the exit code and stderr below report.
  child.child.stdin?.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e
  })
  child.child.stdin?.end(stdin ?? '')
  try {
    const r = await child
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e: any) {
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

/** A command line of `command` on the cluster aks1 in group rg, then `flags`. */
const onCluster = (command: string, ...flags: string[]): string[] => [
  command,
  '--resource-group',
  'rg',
  '--cluster-name',
  'aks1',
  ...flags
]

/** A file `name` holding `text`, alone in a fresh folder named after `prefix`. */
function newFile(prefix: string, name: string, text: string): { dir: string; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix))
  writeFileSync(path.join(dir, name), text)
  return { dir, file: path.join(dir, name) }
}

/** The help entry of one flag: from its line to the next flag's, whitespace collapsed. */
function helpEntry(help: string, flag: string): string | undefined {
  const lines = help.split('\n')
  const at = lines.findIndex(
    l => l.startsWith(`  ${flag} `) || l.startsWith(`  ${flag},`) || l === `  ${flag}`
  )
  if (at < 0) return undefined
  const end = lines.findIndex((l, i) => i > at && !l.startsWith('   '))
  return lines
    .slice(at, end < 0 ? undefined : end)
    .join(' ')
    .replace(/\s+/g, ' ')
}

describe('cli', () => {
  it('plan prints the full plan without credentials or network', async () => {
    const r = await cli(onCluster('plan'))
    expect(r.code).toBe(0)
    expect(r.stderr).not.toContain('NETWORK-ATTEMPT')
    expect(r.stdout).toContain('1. infiniband-feature')
    expect(r.stdout).toContain('10. gpu-operator')
    expect(r.stdout).toContain('helm upgrade --install gpu-operator nvidia/gpu-operator --version v26.7.0')
  })

  it('plan --output json parses and lists the ten components in order', async () => {
    const r = await cli(onCluster('plan', '--output', 'json'))
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc.components.map((c: { name: string }) => c.name)).toEqual(allComponents())
    for (const c of doc.components) expect(c).toHaveProperty('kind')
  })

  it('reads INPUT_* variables as the runner sets them', async () => {
    const r = await cli(['plan', '--output', 'json'], {
      'INPUT_RESOURCE-GROUP': 'rg-env',
      'INPUT_NODE-COUNT': '4'
    })
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).cluster).toMatchObject({ resourceGroup: 'rg-env', nodeCount: 4 })
  })

  it('bad inputs exit 2, list every problem, hide secrets and touch no network', async () => {
    const r = await cli(
      onCluster(
        'apply',
        '--node-pool',
        'GPU_Pool',
        '--vm-size',
        'Standard_D4s_v5',
        '--client-secret',
        'do-not-print-me',
        '--creds',
        '{"clientSecret": "nor-me"'
      )
    )
    expect(r.code).toBe(2)
    expect(r.stderr).not.toContain('NETWORK-ATTEMPT')
    expect(r.stderr).toContain('node-pool "GPU_Pool": must match ^[a-z][a-z0-9]{0,11}$')
    expect(r.stderr).toContain('vm-size "Standard_D4s_v5": not an InfiniBand (RDMA) size')
    expect(r.stderr).toContain('creds (hidden)')
    expect(r.stdout + r.stderr).not.toContain('do-not-print-me')
    expect(r.stdout + r.stderr).not.toContain('nor-me')
  })

  it('a VM size the stack cannot finish on exits 2 with the reason, before any network call', async () => {
    const r = await cli(onCluster('apply', '--vm-size', 'Standard_ND40rs_v2'))
    expect(r.code).toBe(2)
    expect(r.stderr).not.toContain('NETWORK-ATTEMPT')
    expect(r.stderr).toContain(
      'vm-size "Standard_ND40rs_v2": not supported: Standard_ND40rs_v2 carries ConnectX-5 InfiniBand (VF PCI device 1018)'
    )
    const amd = await cli(['plan', '--vm-size', 'Standard_ND96isr_MI300X_v5'])
    expect(amd.code).toBe(2)
    expect(amd.stderr).toContain('has AMD MI300X GPUs: the NVIDIA GPU Operator cannot drive them')
  })

  it('unknown options and commands are usage errors (exit 2)', async () => {
    expect((await cli(['plan', '--no-such-input', 'x'])).code).toBe(2)
    expect((await cli(['destroy'])).code).toBe(2)
    expect((await cli([])).code).toBe(2)
  })

  it('--help, -h and help print the commands on stdout and exit 0', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const r = await cli(args)
      expect(r.code).toBe(0)
      expect(r.stderr).toBe('')
      for (const c of [
        'apply',
        'verify',
        'drift',
        'plan',
        'status',
        'simulate',
        'sim up',
        'sim down',
        'perftest parse'
      ])
        expect(r.stdout).toContain(`  ${c} `)
      expect(r.stdout).toContain('3 drift found')
    }
  })

  it('each mode command’s help lists the inputs that mode reads, with default and description', async () => {
    for (const mode of ['apply', 'verify', 'drift', 'plan', 'uninstall'] as const) {
      const help = await cli([mode, '--help'])
      expect(help.code).toBe(0)
      expect(help.stderr).toBe('')
      for (const i of INPUTS) {
        const entry = helpEntry(help.stdout, `--${i.name}`)
        // The command is the mode; plan's own --mode says which mode it plans (the input plan-mode).
        const reads = i.name !== 'mode' && i.name !== 'plan-mode' && inputModes(i).includes(mode)
        const ownMode = mode === 'plan' && i.name === 'mode'
        expect({ mode, input: i.name, listed: entry !== undefined }).toEqual({
          mode,
          input: i.name,
          listed: reads || ownMode
        })
        if (ownMode) expect(entry).toContain('Which mode to plan')
        if (!reads) continue
        expect(entry).toContain(i.description.replace(/\s+/g, ' '))
        // A default wider than the page (an image with its digest) is cut where it fits, at a : or @.
        if (i.default)
          expect(entry!.replace(/\s/g, '')).toContain(`(default:${i.default})`.replace(/\s/g, ''))
      }
      if (mode === 'plan') expect(help.stdout).not.toMatch(/--client-secret|--creds/) // plan needs no secret
      if (mode === 'verify' || mode === 'drift') expect(help.stdout).not.toContain('--create-cluster')
    }
    const plan = await cli(['plan', '--help'])
    expect(helpEntry(plan.stdout, '-o, --output text|json')).toContain('(default: text)')
    expect(helpEntry(plan.stdout, '--mode apply|uninstall')).toContain('(default: apply)')
    // kubectl's --context names kube-context.
    expect(helpEntry((await cli(['verify', '--help'])).stdout, '--kube-context')).toContain(
      '--kube-context, --context VALUE With kubeconfig: the context to use'
    )
    const simulate = await cli(['simulate', '-h'])
    expect(simulate.code).toBe(0)
    expect(helpEntry(simulate.stdout, '--mode apply|verify|drift|plan|uninstall')).toContain(
      '(default: apply)'
    )
    expect((await cli(['help', 'uninstall'])).stdout).toContain('Usage: node dist/cli.js uninstall')
    expect(helpEntry(simulate.stdout, '--concurrent N')).toBeDefined()
    expect((await cli(['help', 'drift'])).stdout).toContain('Usage: node dist/cli.js drift')
    expect((await cli(['sim', 'up', '--help'])).stdout).toContain('--dir DIR')
    // status reads drift's inputs (read-only, helm to read the releases); uninstall previews with --dry-run.
    const status = await cli(['status', '--help'])
    expect(status.code).toBe(0)
    expect(helpEntry(status.stdout, '--helm-sha256')).toBeDefined()
    expect(helpEntry(status.stdout, '--create-cluster')).toBeUndefined()
    expect(helpEntry(status.stdout, '-o, --output text|json')).toContain('(default: text)')
    expect(helpEntry((await cli(['uninstall', '--help'])).stdout, '--dry-run')).toContain('Remove nothing')
  })

  it('-o is --output; a flag the command does not read is a note, not an error; --context is kube-context', async () => {
    const r = await cli(onCluster('plan', '-o', 'json'))
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).cluster.name).toBe('aks1')
    const unread = await cli(['plan', '--fail-on-drift', 'false', '-o', 'json'])
    expect(unread.code).toBe(0)
    expect(unread.stderr).toContain('note: --fail-on-drift is not read by plan; ignored')
    const both = await cli(['verify', '--context', 'a', '--kube-context', 'b'])
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('--context and --kube-context are the same input: give one')
    // --context without a kubeconfig (and no $KUBECONFIG) is an input problem, before any network.
    const alone = await cli(['plan', '--context', 'prod'])
    expect(alone.code).toBe(2)
    expect(alone.stderr).toContain('kube-context "prod": only with kubeconfig')
  })

  it('--version prints package.json’s version; the package’s bin is dist/cli.js, runnable as it is', async () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
    for (const flag of ['--version', '-V']) {
      const r = await cli([flag])
      expect(r).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' })
    }
    expect(pkg.bin).toEqual({ 'aks-rdma-action': 'dist/cli.js' })
    // The shipped bundle starts with a shebang and is executable: `npx aks-rdma-action` runs it.
    const bundle = bundlePath('cli')
    expect(readFileSync(bundle, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node')
    expect(statSync(bundle).mode & 0o111).toBe(0o111)
    const direct = await new Promise<{ code: number; stdout: string }>(resolve =>
      execFile(bundle, ['--version'], (e, stdout) => resolve({ code: e ? 1 : 0, stdout }))
    )
    expect(direct).toEqual({ code: 0, stdout: `${pkg.version}\n` })
    // The committed one too (what npm links as the command).
    expect(statSync('dist/cli.js').mode & 0o111).toBe(0o111)
  })

  it('an unknown flag exits 2 naming the closest input on the same line', async () => {
    const r = await cli(['plan', '--node-cont', '2'])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr.split('\n')[0]).toBe('--node-cont: unknown option; did you mean --node-count?')
    expect((await cli(['apply', '--resourcegroup', 'rg'])).stderr).toContain('did you mean --resource-group?')
    expect((await cli(['plan', '--ouput', 'json'])).stderr).toContain('did you mean --output?')
    const far = await cli(['plan', '--zzzzzzzzzzzz', 'x'])
    expect(far.code).toBe(2)
    expect(far.stderr).toContain('--zzzzzzzzzzzz: unknown option')
  })

  it('a flag without its value exits 2 and never becomes "true"', async () => {
    for (const args of [
      ['plan', '--resource-group'],
      ['plan', '--resource-group', '--cluster-name', 'aks1']
    ]) {
      const r = await cli(args)
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain('--resource-group: needs a value')
    }
    expect((await cli(['plan', '--create-cluster'])).stderr).toContain('needs a value (true or false)')
  })

  it('--mode with a mode command, a bad --output and stray arguments exit 2', async () => {
    const bogus = await cli(['plan', '--mode', 'bogus'])
    expect(bogus.code).toBe(2)
    expect(bogus.stderr).toContain('--mode "bogus": must be apply or uninstall')
    expect((await cli(['apply', '--mode', 'verify'])).code).toBe(2)
    expect((await cli(['uninstall', '--mode', 'apply'])).stderr).toContain(
      '--mode: not with the uninstall command'
    )
    expect((await cli(['plan', '--output', 'yaml'])).stderr).toContain(
      '--output "yaml": must be text or json'
    )
    expect((await cli(['plan', 'extra'])).code).toBe(2)
    const typo = await cli(['aply'])
    expect(typo.code).toBe(2)
    expect(typo.stderr).toContain('did you mean apply?')
  })

  it('plan --mode uninstall prints what uninstall would remove, in reverse order, without network', async () => {
    const r = await cli(['plan', '--mode', 'uninstall', '--resource-group', 'rg', '--cluster-name', 'aks1'])
    expect(r.code).toBe(0)
    expect(r.stderr).not.toContain('NETWORK-ATTEMPT')
    const order = [...r.stdout.matchAll(/^\d+\. (\S+) — /gm)].map(m => m[1])
    // The verification probe's leftovers first, then the cluster stack in reverse.
    expect(order).toEqual(['probe-leftovers', ...clusterStack().reverse()])
    expect(r.stdout).toContain('helm uninstall gpu-operator -n gpu-operator --wait')
    expect(r.stdout).toContain(
      'kubectl delete nicclusterpolicy nic-cluster-policy --wait  # only when recorded in kube-system/aks-rdma-action-owned with its live uid'
    )
    expect(r.stdout).toContain('kubectl wait --for=delete pod -n network-operator -l nvidia.com/ofed-driver')
    expect(r.stdout).toContain('node pool rdmapool and cluster rg/aks1 stay (cleanup: none)')
    const json = await cli(['plan', '--mode', 'uninstall', '--output', 'json', '--cleanup', 'node-pool'])
    expect(JSON.parse(json.stdout)).toMatchObject({ mode: 'plan', planMode: 'uninstall' })
    expect(JSON.parse(json.stdout).azure).toMatch(
      /^node pool rdmapool: deleted when its aks-rdma-action-created-by tag is a run identity the action wrote/
    )
  })

  it('plan output is the same document every time: no pid, random or time values', async () => {
    const args = onCluster('plan', '--create-cluster', 'true')
    const a = await cli([...args, '--output', 'json'], { LOCATION: 'x', INPUT_LOCATION: 'eastus' })
    const b = await cli([...args, '--output', 'json'], { INPUT_LOCATION: 'eastus' })
    expect(a.code).toBe(0)
    expect(a.stdout).toBe(b.stdout)
    expect(a.stdout).toContain('"aks-rdma-action-created-by": "<run-id>"')
    expect(a.stdout).not.toMatch(/local-\d+/)
    const text = await cli(args, { INPUT_LOCATION: 'eastus' })
    expect(text.stdout).toBe((await cli(args, { INPUT_LOCATION: 'eastus' })).stdout)
    expect(text.stdout + text.stderr).not.toMatch(/^\s*::/m)
  })

  it('plan under Actions: workflow commands in a values file stay text', async () => {
    const { dir, file: values } = newFile(
      'cli-plan-values-',
      'values.yaml',
      "driver:\n  note: |\n    ::set-output name=pwned::yes\n    ::add-mask::aks1\n  args: ['::error file=a.ts::X']\n"
    )
    const args = onCluster('plan')
    // The runner's output file, so the only commands on the streams would be injected ones.
    const env = { GITHUB_ACTIONS: 'true', GITHUB_OUTPUT: path.join(dir, 'outputs') }
    writeFileSync(env.GITHUB_OUTPUT, '')
    for (const file of ['gpu-operator-values', 'network-operator-values', 'nic-cluster-policy']) {
      const r = await cli([...args, `--${file}`, values], env)
      expect({ file, code: r.code }).toEqual({ file, code: 0 })
      expect(r.stdout).toContain('::set-output name=pwned::yes')
      expect({ file, live: commandLikeLines(r.stdout + r.stderr) }).toEqual({ file, live: [] })
    }
  })

  it('--inputs-file gives inputs and environment; flags win over it; a bad file is refused', async () => {
    const { dir, file } = newFile(
      'cli-env-',
      '.env',
      "# a comment\nINPUT_RESOURCE-GROUP=rg-file\nINPUT_NODE-COUNT=5\nINPUT_CLUSTER-NAME='aks-file'\n"
    )
    const r = await cli(['plan', '--inputs-file', file, '--node-count', '6', '--output', 'json'])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).cluster).toMatchObject({
      resourceGroup: 'rg-file',
      name: 'aks-file',
      nodeCount: 6
    })
    // A CA bundle the file names must exist (it is loaded into this process's trusted CAs).
    writeFileSync(file, `NODE_EXTRA_CA_CERTS=${path.join(dir, 'no-ca.pem')}\n`)
    const badCa = await cli(['plan', '--inputs-file', file])
    expect(badCa.code).toBe(2)
    expect(badCa.stderr).toContain('no-ca.pem: file not found')
    // The tool reads the file itself: a missing one is its own usage error, not Node's exit 9.
    const missing = await cli(['plan', '--inputs-file', path.join(dir, 'nope')])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain(`--inputs-file ${path.join(dir, 'nope')}: file not found`)
    // A FIFO is refused at once instead of waited on (Node's own --env-file would hang on it).
    const fifo = path.join(dir, 'fifo')
    execFileSync('mkfifo', [fifo])
    const piped = await cli(['plan', '--inputs-file', fifo])
    expect(piped.code).toBe(2)
    expect(piped.stderr).toContain(`--inputs-file ${fifo}: not a regular file (a FIFO)`)
  })

  it('--inputs-file: a NODE_OPTIONS in it runs nothing; --env-file is refused, naming --inputs-file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cli-inputs-node-options-'))
    const marker = path.join(dir, 'marker')
    const script = path.join(dir, 'x.cjs')
    writeFileSync(script, `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran')\n`)
    const file = path.join(dir, 'inputs.env')
    writeFileSync(file, `INPUT_RESOURCE-GROUP=rg\nNODE_OPTIONS="--require ${script}"\n`)
    const r = await cli(['plan', '--inputs-file', file])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`--inputs-file ${file}: sets NODE_OPTIONS`)
    expect(existsSync(marker)).toBe(false)
    // The old flag, in every spelling Node reads, is refused before anything else, naming the new
    // one. (Node has already loaded such a file by then: docs/security.md says never to pass it.)
    writeFileSync(file, 'INPUT_RESOURCE-GROUP=rg\n')
    for (const args of [
      ['plan', '--env-file', file],
      ['plan', `--env-file=${file}`],
      ['plan', '--env-file-if-exists', file],
      ['plan', '--resource-group', 'rg', `--env-file-if-exists=${file}`],
      ['--help', '--env-file', file]
    ]) {
      const old = await cli(args)
      expect({ args, code: old.code }).toEqual({ args, code: 2 })
      expect(old.stderr).toMatch(/^--env-file(-if-exists)?: use --inputs-file FILE/)
      expect(old.stdout).toBe('')
    }
    // Why the flag had to go: Node itself runs an --env-file's NODE_OPTIONS before the CLI starts,
    // so the refusal comes too late to stop it (docs/security.md: never pass it).
    writeFileSync(file, `NODE_OPTIONS="--require ${script}"\n`)
    const late = await cli(['plan', '--env-file', file])
    expect(late.code).toBe(2)
    expect(readFileSync(marker, 'utf8')).toBe('ran')
    // So is Node's config file, which Node applies from any command line too.
    const configFile = path.join(dir, 'node.config.json')
    writeFileSync(configFile, '{}\n')
    const config = await cli(['plan', `--experimental-config-file=${configFile}`])
    expect(config.code).toBe(2)
    expect(config.stderr).toContain('--experimental-config-file: not an option of this tool')
    expect(config.stdout).toBe('')
  })

  it("parsers read a file or standard input; output that is not the tool's exits non-zero", async () => {
    const perftest = readFileSync(
      'test/fixtures/perftest/13-ib_write_bw-all-sizes-gbits-results-only-azure-nd96asr_v4.txt',
      'utf8'
    )
    const fromStdin = await cli(['perftest', 'parse', '-', '--tool', 'ib_write_bw'], {}, perftest)
    expect(fromStdin.code).toBe(0)
    expect(JSON.parse(fromStdin.stdout).rows.length).toBeGreaterThan(0)
    const notPerftest = await cli(['perftest', 'parse', '-'], {}, '{"hello": "world"}\n')
    expect(notPerftest.code).toBe(2)
    expect(notPerftest.stdout).toBe('')
    expect(notPerftest.stderr).toContain('not perftest output')
    const failed = await cli(['perftest', 'parse', '-'], {}, "Couldn't connect to 10.0.0.1:18515\n")
    expect(failed.code).toBe(1)
    expect(JSON.parse(failed.stdout).error.kind).toBe('connect')
    // perftest's refusal of its command line: a failure that names the option, never "not perftest output"
    const refused = await cli([
      'perftest',
      'parse',
      'test/fixtures/perftest-refusals/01-ib_write_lat-cuda-write-4.5-0.20-to-25.10.txt'
    ])
    expect(refused.code).toBe(1)
    expect(JSON.parse(refused.stdout).error).toMatchObject({ kind: 'usage', flag: '--use_cuda' })
    expect(refused.stderr).toContain(
      'refused --use_cuda: Perftest supports CUDA latency tests with read/send verbs only'
    )
    const ibstat = await cli(
      ['ibstat', 'parse', '-'],
      {},
      readFileSync('test/fixtures/ibstat/01-ibstat-azure-hb120v3-hdr200-mlx5_ib0.txt', 'utf8')
    )
    expect(ibstat.code).toBe(0)
    expect(JSON.parse(ibstat.stdout).ports.length).toBeGreaterThan(0)
    const notIbstat = await cli(['ibstat', 'parse', 'README.md'])
    expect(notIbstat.code).toBe(2)
    expect(notIbstat.stdout).toBe('')
    expect(notIbstat.stderr).toContain('not ibstat')
    // the tools' own no-device reports: ibstatus's fatal error, ibstat's empty output (exit 0)
    const noDevice = await cli(['ibstat', 'parse', '-'], {}, 'Fatal error:  No devices\n')
    expect(noDevice.code).toBe(1)
    expect(JSON.parse(noDevice.stdout)).toMatchObject({ format: 'ibstatus', error: { kind: 'no-devices' } })
    expect(noDevice.stderr).toContain('no-devices: Fatal error:  No devices')
    const empty = await cli(['ibstat', 'parse', '-'], {}, '')
    expect(empty.code).toBe(1)
    expect(JSON.parse(empty.stdout).error.kind).toBe('no-devices')
    expect((await cli(['ibstat', 'parse'])).code).toBe(2)
    expect((await cli(['ibstat', 'parse', 'no-such-file'])).stderr).toContain('no-such-file: file not found')
    const fifo = path.join(mkdtempSync(path.join(tmpdir(), 'cli-fifo-')), 'out.fifo')
    execFileSync('mkfifo', [fifo])
    expect(await cli(['perftest', 'parse', fifo])).toEqual({
      code: 2,
      stdout: '',
      stderr: `perftest parse: ${fifo}: not a regular file (a FIFO)\n`
    })
    expect((await cli(['ibstat', 'parse', '/dev/zero'])).stderr).toBe(
      'ibstat parse: /dev/zero: not a regular file (a character device)\n'
    )
  })

  it('hostile inputs exit 2 at once, naming the input, echoing nothing, leaving nothing behind', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cli-hostile-'))
    const fifo = path.join(dir, 'values.fifo')
    execFileSync('mkfifo', [fifo])
    const shadowLike = path.join(dir, 'shadow')
    writeFileSync(shadowLike, 'root:$6$salt$hash:20228:0:99999:7:::\n')
    const tmp = mkdtempSync(path.join(tmpdir(), 'cli-hostile-tmp-'))
    const cases: Array<[string[], string]> = [
      [['--timeout', '99999999999999h'], 'timeout "99999999999999h": out of range; must be from 1s to 120h'],
      [
        ['--network-operator-values', '/dev/zero'],
        'network-operator-values "/dev/zero": not a regular file (a character device)'
      ],
      [['--gpu-operator-values', fifo], `gpu-operator-values "${fifo}": not a regular file (a FIFO)`],
      [
        ['--network-operator-values', shadowLike],
        `network-operator-values "${shadowLike}": 1 top-level key is not a name`
      ],
      [
        ['--arm-endpoint', 'https://user:pass@host/%0A'],
        'arm-endpoint "https://***@host/%0A": must not contain spaces or control characters'
      ],
      [
        ['--authority-host', 'https://login.example.net'],
        'authority-host "login.example.net": host login.example.net is not an Azure cloud endpoint'
      ]
    ]
    for (const [flags, problem] of cases) {
      const r = await cli(
        [
          'apply',
          '--resource-group',
          'rg',
          '--cluster-name',
          'aks',
          '--subscription-id',
          '00000000-0000-0000-0000-000000000000',
          ...flags
        ],
        { TMPDIR: tmp }
      )
      expect({ flags, code: r.code, problem: r.stderr.includes(problem) }).toEqual({
        flags,
        code: 2,
        problem: true
      })
      expect(r.stderr).not.toMatch(/user:pass|\$6\$|root:/)
      expect(r.stdout).toBe('')
    }
    expect(readdirSync(tmp)).toEqual([])
  })

  it('--inputs-file: refuses NODE_OPTIONS and loader variables, and a file others could write', async () => {
    const { dir, file } = newFile(
      'cli-env-hostile-',
      '.env',
      'INPUT_RESOURCE-GROUP=rg\nNODE_OPTIONS=--require /tmp/evil.js\nLD_PRELOAD=/tmp/evil.so\n'
    )
    const r = await cli(['plan', '--inputs-file', file])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      `--inputs-file ${file}: sets NODE_OPTIONS, LD_PRELOAD, which would load code into this command`
    )
    writeFileSync(file, 'INPUT_RESOURCE-GROUP=rg\n')
    chmodSync(file, 0o666)
    expect((await cli(['plan', '--inputs-file', file])).stderr).toContain(
      `--inputs-file ${file}: is writable by every user (chmod go-w it)`
    )
    // Group-writable is refused too, as ssh refuses it.
    chmodSync(file, 0o664)
    const group = await cli(['plan', '--inputs-file', file])
    expect(group.code).toBe(2)
    expect(group.stderr).toContain(`--inputs-file ${file}: is writable by its group (chmod go-w it)`)
    // A symbolic link is followed and judged by its target: a link (mode 0777 itself) to a good
    // file is taken; to a group-writable one, refused for the target's mode.
    const link = path.join(dir, 'link.env')
    symlinkSync(file, link)
    expect((await cli(['plan', '--inputs-file', link])).stderr).toContain(
      `--inputs-file ${link}: is writable by its group (chmod go-w it)`
    )
    chmodSync(file, 0o644)
    expect((await cli(['plan', '--inputs-file', link])).code).toBe(0)
    expect((await cli(['plan', '--inputs-file', file])).code).toBe(0)
  })
})
