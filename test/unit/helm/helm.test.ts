// The helm command line as the Helm class runs it, against a recording stand-in program (a real
// executable started through @actions/exec, which writes down its argv, the environment the class
// gives it and the values file it was handed, and answers with the exit code, stdout and stderr the
// test scripted for that subcommand): every argv, KUBECONFIG and extra environment over the
// inherited one, values in a 0600 JSON file that is gone afterwards, the errors helm's output
// turns into (with their exact text) and the JSON helm prints read into a release status. Also
// the CRD documents of `helm template` output and the pinned checksums' version order.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { helmChecksumVersions } from '../../../src/helm/checksums.js'
import {
  crdDocuments,
  Helm,
  HelmCommandError,
  PLAN_VALUES_FILE,
  templateCrdsArgv,
  type UpgradeInstallOptions
} from '../../../src/helm/helm.js'
import { captureLog } from '../../support/capture-log.js'

interface Reply {
  exitCode?: number
  stdout?: string
  stderr?: string
}
interface Call {
  argv: string[]
  env: Record<string, string | undefined>
  values?: { path: string; text: string; mode: number }
}

// The stand-in: records each call as one JSON line and answers from the replies file, keyed by
// the first two words of argv, then the first ("repo add", then "repo"), else exit 0 silently.
const STANDIN = `
const fs = require('node:fs')
const argv = process.argv.slice(2)
const at = argv.indexOf('--values')
let values
if (at >= 0) {
  const p = argv[at + 1]
  values = { path: p, text: fs.readFileSync(p, 'utf8'), mode: fs.statSync(p).mode & 0o777 }
}
const env = {}
for (const k of ['KUBECONFIG', 'HELM_CONFIG_HOME', 'STANDIN_INHERITED']) env[k] = process.env[k]
fs.appendFileSync(process.env.STANDIN_CALLS, JSON.stringify({ argv, env, values }) + '\\n')
const replies = JSON.parse(fs.readFileSync(process.env.STANDIN_REPLIES, 'utf8'))
const r = replies[argv.slice(0, 2).join(' ')] ?? replies[argv[0]] ?? {}
if (r.stdout) process.stdout.write(r.stdout)
if (r.stderr) process.stderr.write(r.stderr)
process.exitCode = r.exitCode ?? 0
`

let dir: string
let helmPath: string
let callsFile: string
let repliesFile: string
const savedRunnerTemp = process.env.RUNNER_TEMP

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'helm-unit-'))
  helmPath = path.join(dir, 'helm')
  callsFile = path.join(dir, 'calls.jsonl')
  repliesFile = path.join(dir, 'replies.json')
  writeFileSync(helmPath, `#!${process.execPath}\n${STANDIN}`)
  chmodSync(helmPath, 0o755)
  writeFileSync(repliesFile, '{}')
  delete process.env.RUNNER_TEMP
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
  if (savedRunnerTemp === undefined) delete process.env.RUNNER_TEMP
  else process.env.RUNNER_TEMP = savedRunnerTemp
})

function replies(r: Record<string, Reply>): void {
  writeFileSync(repliesFile, JSON.stringify(r))
}
function calls(): Call[] {
  if (!existsSync(callsFile)) return []
  return readFileSync(callsFile, 'utf8')
    .trim()
    .split('\n')
    .map(l => JSON.parse(l) as Call)
}
function helm(o: { kubeconfig?: string; env?: Record<string, string> } = {}) {
  const log = captureLog()
  const h = new Helm({
    helmPath,
    log,
    ...(o.kubeconfig ? { kubeconfig: o.kubeconfig } : {}),
    env: { STANDIN_CALLS: callsFile, STANDIN_REPLIES: repliesFile, ...o.env }
  })
  return { h, log }
}

const STATUS_JSON = JSON.stringify({
  name: 'network-operator',
  version: 3,
  info: { status: 'deployed' },
  chart: { metadata: { name: 'network-operator', version: '26.1.0', appVersion: 'v26.1.0' } }
})

describe('HelmCommandError', () => {
  it('names the argv and exit code with helm stderr trimmed', () => {
    const e = new HelmCommandError(['status', 'x'], 1, '  Error: boom \n')
    expect(e.message).toBe('helm status x failed (exit 1): Error: boom')
    expect(e.argv).toEqual(['status', 'x'])
    expect(e.exitCode).toBe(1)
    expect(e.stderr).toBe('  Error: boom \n')
  })
  it('says there was no error output when stderr is blank, and keeps at most 2000 characters', () => {
    expect(new HelmCommandError(['version'], 2, ' \n').message).toBe(
      'helm version failed (exit 2): no error output'
    )
    const long = new HelmCommandError(['x'], 1, 'e'.repeat(2500)).message
    expect(long).toBe(`helm x failed (exit 1): ${'e'.repeat(2000)}`)
  })
})

describe('the environment and log of every call', () => {
  it('inherits the process environment, sets KUBECONFIG when given, and lets the extra env win', async () => {
    process.env.STANDIN_INHERITED = 'from-process'
    try {
      replies({ version: { stdout: 'v3.19.0\n' } })
      const { h, log } = helm({
        kubeconfig: '/k/config',
        env: { HELM_CONFIG_HOME: '/h', KUBECONFIG: '/other' }
      })
      expect(await h.version()).toBe('v3.19.0')
      const [c] = calls()
      expect(c.argv).toEqual(['version', '--template', '{{.Version}}'])
      expect(c.env).toEqual({
        KUBECONFIG: '/other',
        HELM_CONFIG_HOME: '/h',
        STANDIN_INHERITED: 'from-process'
      })
      expect(log.lines).toEqual(['debug: helm version --template {{.Version}}'])
    } finally {
      delete process.env.STANDIN_INHERITED
    }
  })
  it('sets KUBECONFIG from the option alone when the extra env has none', async () => {
    const { h } = helm({ kubeconfig: '/k/config' })
    await h.repoUpdate()
    expect(calls()[0].env.KUBECONFIG).toBe('/k/config')
  })
  it('run() resolves with the output whatever the exit code; its output stays out of the log', async () => {
    replies({ get: { exitCode: 3, stdout: 'secret-values', stderr: 'oops' } })
    const { h, log } = helm()
    expect(await h.run(['get', 'values', 'r'])).toEqual({
      exitCode: 3,
      stdout: 'secret-values',
      stderr: 'oops'
    })
    expect(log.text()).toBe('debug: helm get values r')
  })
})

describe('repositories', () => {
  it('repo add succeeds, and repo update passes the names it is given (none: every repo)', async () => {
    const { h } = helm()
    await h.repoAdd('nvidia', 'https://helm.ngc.nvidia.com/nvidia')
    await h.repoUpdate(['nvidia', 'mellanox'])
    await h.repoUpdate()
    expect(calls().map(c => c.argv)).toEqual([
      ['repo', 'add', 'nvidia', 'https://helm.ngc.nvidia.com/nvidia'],
      ['repo', 'update', 'nvidia', 'mellanox'],
      ['repo', 'update']
    ])
  })
  it('a repo of that name pointing elsewhere is an error naming both URLs and the fix', async () => {
    replies({
      'repo add': {
        exitCode: 1,
        stderr: 'Error: repository name (nvidia) already exists, please specify a different name'
      },
      'repo list': {
        stdout: JSON.stringify([
          { name: 'other', url: 'https://other' },
          { name: 'nvidia', url: 'https://mirror.example/nvidia' }
        ])
      }
    })
    const { h } = helm()
    await expect(h.repoAdd('nvidia', 'https://helm.ngc.nvidia.com/nvidia')).rejects.toThrow(
      new Error(
        'helm repository "nvidia" already points to https://mirror.example/nvidia, not https://helm.ngc.nvidia.com/nvidia. ' +
          'Remove it (helm repo remove nvidia) or give this runner a separate HELM_CONFIG_HOME.'
      )
    )
    expect(calls().map(c => c.argv)).toEqual([
      ['repo', 'add', 'nvidia', 'https://helm.ngc.nvidia.com/nvidia'],
      ['repo', 'list', '-o', 'json']
    ])
  })
  it('says "another URL" when the list does not name it or cannot be read', async () => {
    const exists = {
      exitCode: 1,
      stderr: 'Error: repository name (n) already exists, please specify a different name'
    }
    for (const list of [{ stdout: '[{"name":"x","url":"https://x"}]' }, { stdout: 'not json' }]) {
      replies({ 'repo add': exists, 'repo list': list })
      await expect(helm().h.repoAdd('n', 'https://n')).rejects.toThrow(
        'helm repository "n" already points to another URL, not https://n.'
      )
    }
  })
  it('any other failure of repo add is helm own error', async () => {
    replies({
      'repo add': { exitCode: 1, stderr: 'Error: looks like "https://n" is not a valid chart repository' }
    })
    const e = await helm()
      .h.repoAdd('n', 'https://n')
      .catch((x: unknown) => x)
    expect(e).toBeInstanceOf(HelmCommandError)
    expect((e as Error).message).toBe(
      'helm repo add n https://n failed (exit 1): Error: looks like "https://n" is not a valid chart repository'
    )
    expect(calls()).toHaveLength(1)
  })
  it('repo update failing throws with its argv', async () => {
    replies({ repo: { exitCode: 1, stderr: 'no repositories found' } })
    await expect(helm().h.repoUpdate(['x'])).rejects.toThrow(
      'helm repo update x failed (exit 1): no repositories found'
    )
  })
})

describe('release status and values', () => {
  it('reads the JSON helm prints into the release status', async () => {
    replies({ status: { stdout: STATUS_JSON } })
    const { h } = helm()
    expect(await h.status('network-operator', 'nvidia-network-operator')).toEqual({
      chartName: 'network-operator',
      chartVersion: '26.1.0',
      appVersion: 'v26.1.0',
      revision: 3,
      status: 'deployed'
    })
    expect(calls()[0].argv).toEqual([
      'status',
      'network-operator',
      '--namespace',
      'nvidia-network-operator',
      '--output',
      'json'
    ])
  })
  it('fills what the JSON lacks: no chart, no chart metadata, no info', async () => {
    const { h } = helm()
    for (const rel of [{ version: 1 }, { version: 2, chart: {}, info: {} }]) {
      replies({ status: { stdout: JSON.stringify(rel) } })
      expect(await h.status('r', 'ns')).toEqual({
        chartName: '',
        chartVersion: '',
        appVersion: undefined,
        revision: rel.version,
        status: 'unknown'
      })
    }
  })
  it('is undefined when helm says the release is not found; any other failure throws', async () => {
    replies({ status: { exitCode: 1, stderr: 'Error: release: not found' } })
    expect(await helm().h.status('r', 'ns')).toBeUndefined()
    replies({ status: { exitCode: 1, stderr: 'Error: Kubernetes cluster unreachable' } })
    await expect(helm().h.status('r', 'ns')).rejects.toThrow(
      'helm status r --namespace ns --output json failed (exit 1): Error: Kubernetes cluster unreachable'
    )
  })
  it('user values: as printed, {} for null or nothing, an error when helm fails', async () => {
    const { h } = helm()
    replies({ get: { stdout: '{"driver":{"enabled":false}}' } })
    expect(await h.getValues('r', 'ns')).toEqual({ driver: { enabled: false } })
    expect(calls()[0].argv).toEqual(['get', 'values', 'r', '--namespace', 'ns', '--output', 'json'])
    replies({ get: { stdout: 'null\n' } })
    expect(await h.getValues('r', 'ns')).toEqual({})
    replies({ get: { stdout: '' } })
    expect(await h.getValues('r', 'ns')).toEqual({})
    replies({ get: { exitCode: 1, stderr: 'Error: release: not found' } })
    await expect(h.getValues('r', 'ns')).rejects.toThrow(
      'helm get values r --namespace ns --output json failed (exit 1)'
    )
  })
})

describe('upgrade --install', () => {
  const opts = (o: Partial<UpgradeInstallOptions> = {}): UpgradeInstallOptions => ({
    release: 'network-operator',
    chart: 'nvidia/network-operator',
    version: 'v26.1.0',
    namespace: 'nvidia-network-operator',
    values: { nfd: { enabled: true }, on: 'yes' },
    ...o
  })

  it('plans the argv with the placeholder, each flag only when asked, the timeout in whole seconds (at least 1)', () => {
    const { h } = helm()
    // release and chart, then the pinned version and the namespace, as opts() gives them
    const { release, chart, version, namespace } = opts()
    const base = ['upgrade', '--install', release, chart, '--version', version, '--namespace', namespace]
    expect(h.planArgv(opts())).toEqual([...base, '--values', PLAN_VALUES_FILE])
    expect(PLAN_VALUES_FILE).toBe('<values.json>')
    expect(
      h.planArgv(opts({ createNamespace: true, wait: true, atomic: true, timeoutMs: 1500 }), 'v.json')
    ).toEqual([...base, '--create-namespace', '--values', 'v.json', '--wait', '--atomic', '--timeout', '2s'])
    expect(h.planArgv(opts({ createNamespace: false, wait: false, atomic: false, timeoutMs: 0 }))).toEqual([
      ...base,
      '--values',
      PLAN_VALUES_FILE,
      '--timeout',
      '1s'
    ])
    expect(h.planArgv(opts({ timeoutMs: 120_000 })).slice(-2)).toEqual(['--timeout', '120s'])
    // A downgrade that keeps newer CRDs: the chart's CRD upgrade hook must not run.
    expect(h.planArgv(opts({ noHooks: true, wait: true }))).toEqual([
      ...base,
      '--values',
      PLAN_VALUES_FILE,
      '--wait',
      '--no-hooks'
    ])
    expect(h.planArgv(opts({ noHooks: false }))).not.toContain('--no-hooks')
  })

  it('hands helm the values in a 0600 JSON file under RUNNER_TEMP, removed afterwards, then reads the status', async () => {
    process.env.RUNNER_TEMP = dir
    replies({ status: { stdout: STATUS_JSON } })
    const { h } = helm()
    const st = await h.upgradeInstall(opts({ wait: true, timeoutMs: 60_000 }))
    expect(st.revision).toBe(3)
    const [up, status] = calls()
    const file = up.values!.path
    expect(up.argv).toEqual(h.planArgv(opts({ wait: true, timeoutMs: 60_000 }), file))
    expect(path.dirname(path.dirname(file))).toBe(dir)
    expect(path.basename(path.dirname(file))).toMatch(/^helm-values-/)
    expect(path.basename(file)).toBe('network-operator.json')
    expect(up.values!.mode).toBe(0o600)
    expect(up.values!.text).toBe(JSON.stringify({ nfd: { enabled: true }, on: 'yes' }, null, 2))
    expect(existsSync(path.dirname(file))).toBe(false)
    expect(status.argv[0]).toBe('status')
  })

  it('writes {} for no values, and removes the file even when helm fails', async () => {
    replies({
      upgrade: { exitCode: 1, stderr: 'Error: UPGRADE FAILED: timed out waiting for the condition' }
    })
    const { h } = helm()
    const e = await h.upgradeInstall(opts({ values: undefined as never })).catch((x: unknown) => x)
    expect((e as Error).message).toMatch(
      /failed \(exit 1\): Error: UPGRADE FAILED: timed out waiting for the condition$/
    )
    const [up] = calls()
    expect(up.values!.text).toBe('{}')
    expect(path.dirname(path.dirname(up.values!.path))).toBe(tmpdir())
    expect(existsSync(up.values!.path)).toBe(false)
    expect(calls()).toHaveLength(1)
  })

  it('fails when helm reports success but the release is then not found', async () => {
    replies({ status: { exitCode: 1, stderr: 'Error: release: not found' } })
    await expect(helm().h.upgradeInstall(opts())).rejects.toThrow(
      new Error(
        'helm reported success but release network-operator is not in namespace nvidia-network-operator'
      )
    )
  })
})

describe('uninstall', () => {
  it('runs uninstall --wait with the timeout in whole seconds, true when removed', async () => {
    const { h } = helm()
    expect(await h.uninstall('gpu-operator', 'gpu-operator', 90_500)).toBe(true)
    expect(await h.uninstall('gpu-operator', 'gpu-operator', 0)).toBe(true)
    expect(calls().map(c => c.argv)).toEqual([
      ['uninstall', 'gpu-operator', '--namespace', 'gpu-operator', '--wait', '--timeout', '91s'],
      ['uninstall', 'gpu-operator', '--namespace', 'gpu-operator', '--wait', '--timeout', '1s']
    ])
  })
  it('is false when there is no such release, and throws on any other failure', async () => {
    replies({
      uninstall: { exitCode: 1, stderr: 'Error: uninstall: Release not loaded: x: release: not found' }
    })
    expect(await helm().h.uninstall('x', 'ns', 1000)).toBe(false)
    replies({ uninstall: { exitCode: 1, stderr: 'Error: context deadline exceeded' } })
    await expect(helm().h.uninstall('x', 'ns', 1000)).rejects.toThrow(
      'helm uninstall x --namespace ns --wait --timeout 1s failed (exit 1): Error: context deadline exceeded'
    )
  })
})

describe("a chart version's CRDs", () => {
  const CRD = (name: string) =>
    `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: ${name}\n`

  it('renders with template --include-crds and a private values file, keeping only named CRDs', async () => {
    replies({
      template: {
        stdout: [
          '---',
          CRD('nicclusterpolicies.mellanox.com'),
          '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n',
          '---\nkind: CustomResourceDefinition\nmetadata: {}\n',
          '---\n- a\n- list\n',
          '---\njust a string\n',
          '---\n',
          CRD('hostdevicenetworks.mellanox.com')
        ].join('\n')
      }
    })
    const { h } = helm()
    const o = { release: 'r', chart: 'c/network-operator', version: '1.0', namespace: 'ns', values: { a: 1 } }
    const crds = await h.chartCrds(o)
    expect(crds.map(c => c.metadata.name)).toEqual([
      'nicclusterpolicies.mellanox.com',
      'hostdevicenetworks.mellanox.com'
    ])
    expect(crds[0]).toEqual({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'nicclusterpolicies.mellanox.com' }
    })
    const [c] = calls()
    expect(c.argv).toEqual(templateCrdsArgv(o, c.values!.path))
    expect(c.values!.mode).toBe(0o600)
    expect(c.values!.text).toBe(JSON.stringify({ a: 1 }, null, 2))
    expect(path.basename(c.values!.path)).toBe('r.json')
    expect(existsSync(path.dirname(c.values!.path))).toBe(false)
  })
  it('throws helm own error when the render fails, and removes the values file', async () => {
    replies({ template: { exitCode: 1, stderr: 'Error: chart "x" version "9" not found' } })
    const e = await helm()
      .h.chartCrds({ release: 'r', chart: 'c/x', version: '9', namespace: 'ns', values: undefined as never })
      .catch((x: unknown) => x)
    expect(e).toBeInstanceOf(HelmCommandError)
    expect(calls()[0].values!.text).toBe('{}')
    expect(existsSync(calls()[0].values!.path)).toBe(false)
  })
  it('the template argv names the release, chart, version, namespace and values, CRDs included', () => {
    expect(templateCrdsArgv({ release: 'r', chart: 'c/x', version: '2', namespace: 'ns' }, 'f.json')).toEqual(
      ['template', 'r', 'c/x', '--version', '2', '--namespace', 'ns', '--values', 'f.json', '--include-crds']
    )
  })
  it('crdDocuments of an empty stream is empty', () => {
    expect(crdDocuments('')).toEqual([])
  })
})

describe('the pinned checksums', () => {
  it('lists versions oldest first, by number (v3.9 before v3.10)', () => {
    expect(helmChecksumVersions({ 'v3.10.0': {}, 'v3.9.10': {}, 'v3.9.2': {}, 'v4.0.0': {} })).toEqual([
      'v3.9.2',
      'v3.9.10',
      'v3.10.0',
      'v4.0.0'
    ])
  })
})
