// The CLI as a user runs it (a child process of the shipped dist/cli.js): plan prints the full plan
// and JSON, bad inputs exit 2 with every problem and make no network access, exit codes.
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { bundlePath } from './support/dist.js'

const run = promisify(execFile)
const NO_NETWORK = path.resolve('test/support/no-network.mjs')

async function cli(
  args: string[],
  env: Record<string, string> = {}
): Promise<{ code: number; stdout: string; stderr: string }> {
  const bundle = bundlePath('cli')
  const cleanEnv = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('INPUT_') && !k.startsWith('GITHUB_'))
  )
  try {
    const r = await run(process.execPath, ['--import', NO_NETWORK, bundle, ...args], {
      env: { ...cleanEnv, ...env },
      timeout: 30_000
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e: any) {
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

describe('cli', () => {
  it('plan prints the full plan without credentials or network', async () => {
    const r = await cli(['plan', '--resource-group', 'rg', '--cluster-name', 'aks1'])
    expect(r.code).toBe(0)
    expect(r.stderr).not.toContain('NETWORK-ATTEMPT')
    expect(r.stdout).toContain('1. infiniband-feature')
    expect(r.stdout).toContain('10. gpu-operator')
    expect(r.stdout).toContain('helm upgrade --install gpu-operator nvidia/gpu-operator --version v26.3.3')
  })

  it('plan --output json parses and lists the ten components in order', async () => {
    const r = await cli(['plan', '--resource-group', 'rg', '--cluster-name', 'aks1', '--output', 'json'])
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc.components.map((c: { name: string }) => c.name)).toEqual([
      'infiniband-feature',
      'cluster',
      'node-pool',
      'credentials',
      'network-operator',
      'node-feature-rule',
      'nic-cluster-policy',
      'ib-node-config',
      'rdma-device-plugin',
      'gpu-operator'
    ])
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
    const r = await cli([
      'apply',
      '--resource-group',
      'rg',
      '--cluster-name',
      'aks1',
      '--node-pool',
      'GPU_Pool',
      '--vm-size',
      'Standard_D4s_v5',
      '--client-secret',
      'do-not-print-me',
      '--creds',
      '{"clientSecret": "nor-me"'
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).not.toContain('NETWORK-ATTEMPT')
    expect(r.stderr).toContain('node-pool "GPU_Pool": must match ^[a-z][a-z0-9]{0,11}$')
    expect(r.stderr).toContain('vm-size "Standard_D4s_v5": not an InfiniBand (RDMA) size')
    expect(r.stderr).toContain('creds (hidden)')
    expect(r.stdout + r.stderr).not.toContain('do-not-print-me')
    expect(r.stdout + r.stderr).not.toContain('nor-me')
  })

  it('unknown options and commands are usage errors (exit 2)', async () => {
    expect((await cli(['plan', '--no-such-input', 'x'])).code).toBe(2)
    expect((await cli(['destroy'])).code).toBe(2)
    expect((await cli([])).code).toBe(2)
  })
})
