// Unit tests of the helm stand-in's pieces: --set parsing and value coalescing, flag parsing, release
// encoding, the simulate-report counts, readiness rules, three-way merge, chart rendering and the
// commands that need no cluster (version, repo add/update, chart resolution errors).
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'
import { isReady, merge3 } from '../../../sim/helm/apply.js'
import { parseFlags, parseHelmDuration } from '../../../sim/helm/flags.js'
import { HELM_STANDIN_VERSION, helmReleaseCounts, helmStandin } from '../../../sim/helm/index.js'
import { decodeRelease, releaseSecret, type Release } from '../../../sim/helm/releases.js'
import {
  clusterPolicySpec,
  fullname,
  parseManifest,
  manifestText,
  renderChart
} from '../../../sim/helm/render.js'
import { CHARTS } from '../../../sim/helm/charts.js'
import { coalesce, parseSetInto, userValues } from '../../../sim/helm/values.js'
import { expectReleaseSecret } from '../../support/helm-world.js'

async function run(
  argv: string[],
  env: NodeJS.ProcessEnv
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await helmStandin(argv, env, { stdout: s => (stdout += s), stderr: s => (stderr += s) })
  return { code, stdout, stderr }
}

function helmEnv(): NodeJS.ProcessEnv {
  const dir = mkdtempSync(path.join(tmpdir(), 'helm-unit-'))
  return { HOME: dir, HELM_CONFIG_HOME: path.join(dir, 'cfg'), HELM_CACHE_HOME: path.join(dir, 'cache') }
}

describe('--set parsing (helm strvals)', () => {
  it('types true/false/null/integers and keeps floats, leading zeros and quoted text as strings', () => {
    const v: Record<string, any> = {}
    parseSetInto('a.b=true,a.c=FALSE,n=42,z=0,lead=0123,f=1.5,neg=-3,s=hello,nul=null', v)
    expect(v).toEqual({
      a: { b: true, c: false },
      n: 42,
      z: 0,
      lead: '0123',
      f: '1.5',
      neg: -3,
      s: 'hello',
      nul: null
    })
  })
  it('parses lists, indexes, escapes and --set-string', () => {
    const v: Record<string, any> = {}
    parseSetInto('list={a,b,3},idx[1].name=x,esc=a\\,b,dot\\.key=1', v)
    expect(v).toEqual({ list: ['a', 'b', 3], idx: [null, { name: 'x' }], esc: 'a,b', 'dot.key': 1 })
    const s: Record<string, any> = {}
    parseSetInto('driver.rdma.enabled=true', s, true)
    expect(s).toEqual({ driver: { rdma: { enabled: 'true' } } })
  })
  it('rejects a key without a value as helm does', () => {
    expect(() => userValues([], ['driver.enabled'], [])).toThrow(
      'failed parsing --set data: key "enabled" has no value'
    )
  })
  it('merges -f files in order, then --set; a null user value removes the chart default', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'helm-values-'))
    writeFileSync(path.join(dir, 'a.yaml'), 'nfd:\n  enabled: false\ndriver:\n  rdma:\n    enabled: yes\n')
    writeFileSync(path.join(dir, 'b.yaml'), 'driver:\n  version: "580.1"\n')
    const user = userValues(
      [path.join(dir, 'a.yaml'), path.join(dir, 'b.yaml')],
      ['driver.rdma.useHostMofed=false', 'mig=null'],
      []
    )
    expect(user).toEqual({
      nfd: { enabled: false },
      driver: { rdma: { enabled: true, useHostMofed: false }, version: '580.1' },
      mig: null
    })
    const all = coalesce(user, CHARTS['gpu-operator'].defaults('v26.3.3'))
    expect(all.driver.rdma).toEqual({ enabled: true, useHostMofed: false })
    expect(all.driver.version).toBe('580.1')
    expect(all.toolkit.version).toBe('v1.19.1')
    expect('mig' in all).toBe(false)
    expect(() => userValues([path.join(dir, 'missing.yaml')], [], [])).toThrow(
      `open ${path.join(dir, 'missing.yaml')}: no such file or directory`
    )
  })
})

describe('flags', () => {
  it('accepts pflag forms and reports unknown flags with helm wording', () => {
    const specs = [
      { name: 'values', short: 'f', kind: 'array' as const },
      { name: 'wait', kind: 'bool' as const },
      { name: 'timeout', kind: 'duration' as const }
    ]
    const { args, flags } = parseFlags(
      [
        'rel',
        '-f',
        'a.yaml',
        '--values=b.yaml',
        '-fc.yaml',
        'chart',
        '--wait',
        '--timeout',
        '10m0s',
        '-n',
        'ns'
      ],
      specs
    )
    expect(args).toEqual(['rel', 'chart'])
    expect(flags).toEqual({
      values: ['a.yaml', 'b.yaml', 'c.yaml'],
      wait: true,
      timeout: 600_000,
      namespace: 'ns'
    })
    expect(() => parseFlags(['--bogus'], specs)).toThrow('unknown flag: --bogus')
    expect(() => parseFlags(['-x'], specs)).toThrow("unknown shorthand flag: 'x' in -x")
    expect(() => parseFlags(['--timeout', '10'], specs)).toThrow(
      'invalid argument "10" for "--timeout" flag: time: missing unit in duration "10"'
    )
  })
  it('parses Go durations', () => {
    expect(parseHelmDuration('1h30m')).toBe(5_400_000)
    expect(parseHelmDuration('1.5s')).toBe(1500)
    expect(parseHelmDuration('250ms')).toBe(250)
  })
})

function sampleRelease(version: number, status: Release['info']['status']): Release {
  return {
    name: 'gpu-operator',
    namespace: 'gpu-operator',
    version,
    info: {
      first_deployed: '2026-07-16T10:00:00Z',
      last_deployed: '2026-07-16T10:00:00Z',
      deleted: '',
      description: 'Install complete',
      status
    },
    chart: {
      metadata: { name: 'gpu-operator', version: 'v26.3.3', apiVersion: 'v2', appVersion: 'v26.3.3' },
      lock: null,
      templates: [],
      values: {},
      schema: null,
      files: []
    },
    config: { driver: { rdma: { enabled: true } } },
    manifest: ''
  }
}

describe('release storage format', () => {
  it('stores base64(base64(gzip(json))) in a helm.sh/release.v1 Secret with helm labels', () => {
    const s = releaseSecret(sampleRelease(2, 'deployed'))
    expectReleaseSecret(s, 'gpu-operator', 2)
    const inner = Buffer.from(Buffer.from(s.data.release, 'base64').toString('utf8'), 'base64')
    expect([...inner.subarray(0, 2)]).toEqual([0x1f, 0x8b])
    expect(JSON.parse(gunzipSync(inner).toString()).config).toEqual({ driver: { rdma: { enabled: true } } })
    expect(decodeRelease(s.data.release).version).toBe(2)
  })
  it('counts installs (revision 1 present) and upgrades (revisions above 1)', () => {
    const secrets = [
      releaseSecret(sampleRelease(1, 'superseded')),
      releaseSecret(sampleRelease(2, 'superseded')),
      releaseSecret(sampleRelease(3, 'deployed')),
      { ...releaseSecret({ ...sampleRelease(1, 'deployed'), name: 'network-operator' }) },
      { type: 'Opaque', metadata: { name: 'other', labels: { owner: 'helm', version: '1' } } }
    ]
    expect(helmReleaseCounts(secrets)).toEqual({ installs: 2, upgrades: 2 })
  })
})

describe('readiness and merging', () => {
  it('follows helm rules for Deployments and DaemonSets', () => {
    const dep = (status: Record<string, unknown>, generation = 2) =>
      ({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd', generation },
        spec: { replicas: 1 },
        status
      }) as any
    expect(isReady(dep({}))).toBe(false)
    expect(isReady(dep({ observedGeneration: 1, availableReplicas: 1, updatedReplicas: 1 }))).toBe(false)
    expect(isReady(dep({ observedGeneration: 2, availableReplicas: 1, updatedReplicas: 1 }))).toBe(true)
    const ds = (status: Record<string, unknown>) =>
      ({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'w' }, spec: {}, status }) as any
    expect(isReady(ds({ desiredNumberScheduled: 0 }))).toBe(true)
    expect(isReady(ds({ desiredNumberScheduled: 4, updatedNumberScheduled: 4, numberReady: 2 }))).toBe(false)
    expect(isReady(ds({ desiredNumberScheduled: 4, updatedNumberScheduled: 4, numberReady: 3 }))).toBe(true)
  })
  it('three-way merge keeps server fields, applies changes and drops removed fields', () => {
    const old = { spec: { a: 1, gone: true, keep: { x: 1 } } }
    const target = { spec: { a: 2, keep: { x: 1 } } }
    const live = {
      spec: { a: 1, gone: true, keep: { x: 1, defaulted: 'y' }, serverSet: 5 },
      status: { s: 1 }
    }
    expect(merge3(old, target, live)).toEqual({
      spec: { a: 2, keep: { x: 1, defaulted: 'y' }, serverSet: 5 },
      status: { s: 1 }
    })
  })
})

describe('chart rendering', () => {
  it('renders network-operator with NFD and the default NodeFeatureRule unless disabled', () => {
    const values = coalesce({}, CHARTS['network-operator'].defaults('v26.1.0'))
    const r = renderChart({
      release: 'network-operator',
      namespace: 'network-operator',
      chart: 'network-operator',
      version: 'v26.1.0',
      appVersion: 'v26.1.0',
      values
    })
    const names = r.templates.map(t => `${t.obj.kind}/${t.obj.metadata.name}`)
    expect(names).toEqual(
      expect.arrayContaining([
        'Deployment/network-operator',
        'DaemonSet/network-operator-node-feature-discovery-worker',
        'Deployment/network-operator-node-feature-discovery-master',
        'NodeFeatureRule/nvidia-nics-rules'
      ])
    )
    const op = r.templates.find(
      t => t.obj.kind === 'Deployment' && t.obj.metadata.name === 'network-operator'
    )!.obj
    expect(op.spec.template.spec.containers[0].image).toBe(
      'nvcr.io/nvidia/cloud-native/network-operator:v26.1.0'
    )
    const worker = r.templates.find(t => t.obj.kind === 'DaemonSet')!.obj
    expect(worker.spec.template.spec.tolerations).toContainEqual({
      key: 'nvidia.com/gpu',
      operator: 'Exists',
      effect: 'NoSchedule'
    })
    expect(worker.spec.template.spec.containers[0].image).toBe(
      'nvcr.io/nvidia/mellanox/node-feature-discovery:network-operator-v26.1.0'
    )
    expect(r.crds.map(c => c.metadata.name)).toEqual(
      expect.arrayContaining([
        'nicclusterpolicies.mellanox.com',
        'nodefeaturerules.nfd.k8s-sigs.io',
        'nodefeatures.nfd.k8s-sigs.io'
      ])
    )
    const kinds = r.templates.map(t => t.obj.kind)
    expect(kinds.indexOf('ServiceAccount')).toBeLessThan(kinds.indexOf('DaemonSet'))
    expect(kinds.lastIndexOf('Deployment')).toBeLessThan(kinds.indexOf('NodeFeatureRule'))
    const noRules = renderChart({
      release: 'network-operator',
      namespace: 'network-operator',
      chart: 'network-operator',
      version: 'v26.1.0',
      appVersion: 'v26.1.0',
      values: coalesce(
        { nfd: { deployNodeFeatureRules: false } },
        CHARTS['network-operator'].defaults('v26.1.0')
      )
    })
    expect(noRules.templates.some(t => t.obj.kind === 'NodeFeatureRule')).toBe(false)
    expect(parseManifest(manifestText(noRules.templates))).toEqual(noRules.templates.map(t => t.obj))
  })
  it('builds the ClusterPolicy from values; nfd.enabled=false drops the NFD subchart and its CRDs', () => {
    const values = coalesce(
      { nfd: { enabled: false }, driver: { rdma: { enabled: true } }, migManager: { enabled: false } },
      CHARTS['gpu-operator'].defaults('v26.3.3')
    )
    const spec = clusterPolicySpec(values, 'v26.3.3')
    expect(spec.driver).toMatchObject({
      enabled: true,
      version: '580.126.20',
      rdma: { enabled: true, useHostMofed: false },
      useNvidiaDriverCRD: false
    })
    expect(spec.migManager.enabled).toBe(false)
    expect(spec.validator.version).toBe('v26.3.3')
    expect(spec.devicePlugin.version).toBe('v0.19.3')
    const r = renderChart({
      release: 'gpu-operator',
      namespace: 'gpu-operator',
      chart: 'gpu-operator',
      version: 'v26.3.3',
      appVersion: 'v26.3.3',
      values
    })
    expect(r.templates.map(t => t.obj.kind)).toEqual(['ServiceAccount', 'Deployment', 'ClusterPolicy'])
    // the chart's own crds/ of v26.3.3 (upstream's), without the node-feature-discovery subchart's
    expect(r.crds.map(c => c.metadata.name)).toEqual([
      'clusterpolicies.nvidia.com',
      'nvidiadrivers.nvidia.com'
    ])
    expect(r.crds[0].spec.versions[0].schema.openAPIV3Schema.properties.spec.required).toContain('driver')
    expect(fullname('gpu', 'node-feature-discovery')).toBe('gpu-node-feature-discovery')
    expect(fullname('network-operator', 'network-operator')).toBe('network-operator')
  })
})

describe('commands without a cluster', () => {
  it('reports its version in helm formats', async () => {
    const env = helmEnv()
    expect((await run(['version', '--template', '{{.Version}}'], env)).stdout).toBe(HELM_STANDIN_VERSION)
    expect((await run(['version', '--short'], env)).stdout).toMatch(/^v3\.19\.0\+g[0-9a-f]{7}\n$/)
    expect((await run(['version'], env)).stdout).toContain(
      `version.BuildInfo{Version:"${HELM_STANDIN_VERSION}"`
    )
  })
  it('adds the nvidia repo idempotently and refuses a different URL under the same name', async () => {
    const env = helmEnv()
    const first = await run(['repo', 'add', 'nvidia', 'https://helm.ngc.nvidia.com/nvidia'], env)
    expect(first).toMatchObject({ code: 0, stdout: '"nvidia" has been added to your repositories\n' })
    const again = await run(['repo', 'add', 'nvidia', 'https://helm.ngc.nvidia.com/nvidia'], env)
    expect(again).toMatchObject({
      code: 0,
      stdout: '"nvidia" already exists with the same configuration, skipping\n'
    })
    const other = await run(['repo', 'add', 'nvidia', 'https://example.invalid/charts'], env)
    expect(other).toMatchObject({
      code: 1,
      stderr: 'Error: repository name (nvidia) already exists, please specify a different name\n'
    })
    const update = await run(['repo', 'update'], env)
    expect(update.stdout).toContain('...Successfully got an update from the "nvidia" chart repository')
    const bad = await run(['repo', 'add', 'x', 'https://charts.example.invalid'], env)
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('is not a valid chart repository or cannot be reached')
  })
  it('fails like helm on an unknown repo, unknown chart version, unknown flag and no repositories', async () => {
    const env = helmEnv()
    expect(await run(['repo', 'update'], env)).toMatchObject({
      code: 1,
      stderr: 'Error: no repositories found. You must add one before updating\n'
    })
    const flag = await run(['upgrade', '--install', 'x', 'nvidia/gpu-operator', '--bogus'], env)
    expect(flag).toMatchObject({ code: 1, stderr: 'Error: unknown flag: --bogus\n' })
    const cmd = await run(['frobnicate'], env)
    expect(cmd.code).toBe(1)
    expect(cmd.stderr).toContain('Error: unknown command "frobnicate" for "helm"')
  })
})
