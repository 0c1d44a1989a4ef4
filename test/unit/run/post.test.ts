// The post step as the runner runs it: inputs as INPUT_*, the main step's saved state as STATE_*,
// RUNNER_TEMP a fresh folder, the job summary a file. It removes only what lies inside RUNNER_TEMP
// (links on the way resolved, a link itself removed as a link), trusts the saved state only when
// the run id is this job's, releases the Lease through the kubeconfig (a small local HTTP stand-in
// for the API server answers), keeps or fails Azure deletions without ever reaching Azure, and
// records every decision in the log, the JSON report and the job summary table.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import * as core from '@actions/core'
import { setLogBackend } from '../../../src/log/index.js'
import { parseFileCommands } from '../../../src/run/file-commands.js'
import { actionInputReader } from '../../../src/run/inputs.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { runPost } from '../../../src/run/post.js'
import {
  forgetCreateSubmitted,
  rememberCleanup,
  rememberCreateSubmitted,
  rememberLeaseReleased,
  rememberRun,
  rememberTempPath,
  STATE
} from '../../../src/run/saved-state.js'
import type { CapturedLog } from '../../support/capture-log.js'
import { apiFailure, startLocalApiServer, type LocalApiServer } from '../../support/local-apiserver.js'
import { captureLogBackend } from '../../support/step-context.js'

const NONCE = '0123456789ab'
const RUN_ID = `77-2/build/${NONCE}`
const POOL_DEFAULT = 'rdmapool'

let root: string
let summaryFile: string
let runnerTemp: string
let outside: string
let log: CapturedLog & { errors: Array<{ message: string; title?: string }>; secrets: string[] }
const savedEnv = { ...process.env }

function setInputs(inputs: Record<string, string>): void {
  for (const [k, v] of Object.entries(inputs)) process.env[`INPUT_${k.replace(/ /g, '_').toUpperCase()}`] = v
}
function setState(state: Record<string, string>): void {
  for (const [k, v] of Object.entries(state)) process.env[`STATE_${k}`] = v
}
const APPLY = {
  mode: 'apply',
  'client-id': '22222222-2222-2222-2222-222222222222',
  'tenant-id': '11111111-1111-1111-1111-111111111111',
  'subscription-id': '00000000-0000-0000-0000-000000000000',
  'resource-group': 'rg',
  'cluster-name': 'aks1'
}

beforeAll(async () => {
  // The post step loads the Azure SDK and the Kubernetes client only when it needs them: once here.
  await import('../../../src/azure/index.js')
  await import('../../../src/stack/lease.js')
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'post-')))
  summaryFile = path.join(root, 'summary.md')
})
afterAll(() => {
  process.env = { ...savedEnv }
  rmSync(root, { recursive: true, force: true })
})

let n = 0
beforeEach(() => {
  process.env = { ...savedEnv }
  for (const k of Object.keys(process.env))
    if (/^(GITHUB_|INPUT_|STATE_|RUNNER_|ACTIONS_)/.test(k) || k === 'KUBECONFIG') delete process.env[k]
  const dir = path.join(root, `t${++n}`)
  runnerTemp = path.join(dir, 'runner-temp')
  outside = path.join(dir, 'outside')
  mkdirSync(runnerTemp, { recursive: true })
  mkdirSync(outside)
  writeFileSync(summaryFile, '')
  // @actions/core remembers the summary file it last wrote to, and keeps text it could not write.
  ;(core.summary as unknown as { _filePath?: string })._filePath = undefined
  core.summary.emptyBuffer()
  process.env.RUNNER_TEMP = runnerTemp
  process.env.GITHUB_STEP_SUMMARY = summaryFile
  process.env.GITHUB_RUN_ID = '77'
  process.env.GITHUB_RUN_ATTEMPT = '2'
  process.env.GITHUB_JOB = 'build'
})
afterEach(() => {
  process.env = { ...savedEnv }
})
// The log backend: a captured log that also keeps the errors (with their titles) and the secrets.
captureLogBackend(base => {
  const errors: Array<{ message: string; title?: string }> = []
  const secrets: string[] = []
  log = Object.assign(base, {
    errors,
    secrets,
    secret: (v: string) => void secrets.push(v),
    error: (m: string, a?: unknown) => {
      base.lines.push(`error: ${m}`)
      errors.push({ message: m, title: (a as { title?: string } | undefined)?.title })
    }
  })
})

const summary = (): string => readFileSync(summaryFile, 'utf8')

/** A saved create of the cluster rg/aks1 (and of `pool` in it), as the main step saves it. */
const submitted = (pool?: string, createdBy = RUN_ID): string =>
  JSON.stringify({ createdBy, resourceGroup: 'rg', cluster: 'aks1', ...(pool ? { pool } : {}) })

/** The post step's entries for the saved cluster and pool creates, both with this result and reason. */
const clusterAndPool = (result: string, reason: string) => [
  { resource: 'cluster', name: 'rg/aks1', result, reason },
  { resource: 'node-pool', name: POOL_DEFAULT, result, reason }
]

/** The log the cleanup writes to breaks (as a closed stdout would): cleanupAzure itself throws. */
function breakCleanupLog(): void {
  setLogBackend({
    ...log,
    info: m => {
      if (m.startsWith('cleanup: ')) throw new Error('stdout closed')
      log.info(m)
    }
  })
}

describe('runPost: the job summary', () => {
  it('warns when the job summary file cannot be written, and writes nothing without one', async () => {
    setInputs({ mode: 'bogus' })
    const kubeconfig = path.join(runnerTemp, 'kubeconfig')
    writeFileSync(kubeconfig, 'x')
    setState({ [STATE.tempPaths]: JSON.stringify([kubeconfig]), [STATE.kubeconfig]: kubeconfig })
    process.env.GITHUB_STEP_SUMMARY = path.join(root, 'no-such-dir', 'summary.md')
    const post = await runPost()
    expect(post.cleanup).toEqual([{ resource: 'kubeconfig', name: 'kubeconfig', result: 'deleted' }])
    expect(log.warnings).toHaveLength(1)
    expect(log.warnings[0]).toMatch(/^post: could not write the job summary: Unable to access summary file/)
    // Without the variable: nothing, and no warning.
    writeFileSync(kubeconfig, 'x')
    delete process.env.GITHUB_STEP_SUMMARY
    log.warnings.length = 0
    await runPost()
    expect(log.warnings).toEqual([])
    expect(summary()).toBe('')
  })

  it('writes no table when there was nothing to clean up', async () => {
    setInputs({ mode: 'bogus' })
    const post = await runPost()
    expect(post).toEqual({ exitCode: 0, cleanup: [] })
    expect(summary()).toBe('')
  })
})

describe('runPost: inputs and trust', () => {
  it('with invalid inputs starts nothing but still removes the temp paths', async () => {
    setInputs({ mode: 'bogus' })
    const kubeconfig = path.join(runnerTemp, 'kubeconfig')
    const other = path.join(runnerTemp, 'values.yaml')
    writeFileSync(kubeconfig, 'x')
    writeFileSync(other, 'y')
    setState({
      [STATE.tempPaths]: JSON.stringify([other, kubeconfig]),
      [STATE.kubeconfig]: kubeconfig,
      [STATE.runId]: RUN_ID
    })
    const post = await runPost()
    expect(post).toStrictEqual({
      exitCode: 0,
      cleanup: [{ resource: 'kubeconfig', name: 'kubeconfig', result: 'deleted' }]
    })
    expect(existsSync(kubeconfig)).toBe(false)
    expect(existsSync(other)).toBe(false)
    expect(log.lines).toEqual([
      'info: post: the inputs were invalid, so the main step started nothing; nothing to clean up',
      'info: post: removed values.yaml',
      'info: post: removed kubeconfig'
    ])
    expect(summary()).toBe(
      [
        '### Cleanup (post step)',
        '',
        '| Resource | Name | Result | Why |',
        '| --- | --- | --- | --- |',
        '| kubeconfig | `kubeconfig` | 🗑️ deleted |  |',
        '',
        ''
      ].join('\n')
    )
  })

  it('in apply mode with nothing submitted: the node pool is skipped, Azure is never reached', async () => {
    setInputs({ ...APPLY, 'client-secret': 'sh-secret' })
    setState({ [STATE.runId]: RUN_ID })
    const post = await runPost()
    expect(post).toEqual({
      exitCode: 0,
      cleanup: [
        { resource: 'node-pool', name: POOL_DEFAULT, result: 'skipped', reason: 'this run did not create it' }
      ]
    })
    expect(log.warnings).toEqual([])
    expect(summary()).toContain(
      `| node-pool | \`${POOL_DEFAULT}\` | ➖ skipped | this run did not create it |`
    )
  })

  it('without a saved run id trusts the fresh identity (a saved create cannot match it)', async () => {
    setInputs(APPLY)
    setState({
      [STATE.nodePoolSubmitted]: submitted(POOL_DEFAULT)
    })
    const post = await runPost()
    expect(post.exitCode).toBe(0)
    expect(post.cleanup).toHaveLength(1)
    expect(post.cleanup[0]).toMatchObject({ resource: 'node-pool', name: POOL_DEFAULT, result: 'kept' })
    expect(post.cleanup[0].reason).toMatch(
      new RegExp(
        `^the saved state names created-by identity ${RUN_ID} \\(this job: 77-2/build/[0-9a-f]{12}\\); not trusted$`
      )
    )
    expect(log.warnings.filter(w => w.startsWith('post: the saved run id'))).toEqual([])
  })

  it("distrusts a saved run id that is not this job's: no Lease, nothing in Azure, saved creates kept", async () => {
    setInputs(APPLY)
    const kubeconfig = path.join(runnerTemp, 'kubeconfig')
    const otherId = `77-2/other-job/${NONCE}`
    setState({
      [STATE.runId]: otherId,
      [STATE.kubeconfig]: kubeconfig,
      [STATE.clusterSubmitted]: submitted(undefined, otherId),
      [STATE.nodePoolSubmitted]: submitted('p', otherId)
    })
    const reason = "the saved run id is not this job's identity; nothing is deleted on its word"
    const post = await runPost()
    expect(post).toEqual({ exitCode: 0, cleanup: clusterAndPool('kept', reason) })
    expect(log.warnings).toEqual([
      `post: the saved run id is not this job's (${RUN_ID}); the saved state is not trusted, so no Lease is released and nothing in Azure is deleted`
    ])
  })

  it('when untrusted with no saved creates says nothing of the cluster or the pool', async () => {
    setInputs(APPLY)
    setState({ [STATE.runId]: `local/${NONCE}` })
    const post = await runPost()
    expect(post.cleanup).toEqual([])
    expect(log.warnings).toHaveLength(1)
  })

  it('reads a saved create only when it is JSON with createdBy and cluster strings', async () => {
    const pool = (v: string): Promise<unknown> => {
      process.env[`STATE_${STATE.nodePoolSubmitted}`] = v
      return runPost().then(p => p.cleanup)
    }
    setInputs({ ...APPLY, cleanup: 'node-pool' })
    setState({ [STATE.runId]: RUN_ID })
    const notCreated = [
      { resource: 'node-pool', name: POOL_DEFAULT, result: 'skipped', reason: 'this run did not create it' }
    ]
    expect(await pool('{not json')).toEqual(notCreated)
    expect(await pool(JSON.stringify({ cluster: 'aks1', resourceGroup: 'rg' }))).toEqual(notCreated)
    expect(await pool(JSON.stringify({ createdBy: RUN_ID, resourceGroup: 'rg' }))).toEqual(notCreated)
    expect(await pool(JSON.stringify({ createdBy: 7, cluster: 'aks1', resourceGroup: 'rg' }))).toEqual(
      notCreated
    )
    // A well-formed one naming another cluster is read, and kept.
    const kept = (await pool(
      JSON.stringify({ createdBy: RUN_ID, cluster: 'other', resourceGroup: 'rg', pool: POOL_DEFAULT })
    )) as Array<{ result: string; reason: string }>
    expect(kept).toHaveLength(1)
    expect(kept[0].result).toBe('kept')
    expect(kept[0].reason).toBe('the saved state names cluster other (this job: aks1); not trusted')
  })
})

describe('runPost: Azure deletions that fail', () => {
  it('fails the post step when the pool this run created cannot be deleted (no sign-in possible)', async () => {
    // auth-type oidc without ACTIONS_ID_TOKEN_REQUEST_URL: signing in fails before any request.
    setInputs({ ...APPLY, cleanup: 'node-pool', 'auth-type': 'oidc' })
    setState({
      [STATE.runId]: RUN_ID,
      [STATE.nodePoolSubmitted]: submitted(POOL_DEFAULT)
    })
    const post = await runPost()
    expect(post.exitCode).toBe(1)
    expect(post.cleanup).toHaveLength(1)
    const [e] = post.cleanup
    expect(e).toMatchObject({ resource: 'node-pool', name: POOL_DEFAULT, result: 'failed' })
    expect(e.reason).toMatch(/^reading it failed: .*ACTIONS_ID_TOKEN_REQUEST_URL is not set/)
    expect(log.errors).toEqual([
      {
        message:
          `node-pool ${POOL_DEFAULT} was created by this run but is still there: ${e.reason!.replace(/\.$/, '')}. ` +
          `Delete it with: az aks nodepool delete --subscription ${APPLY['subscription-id']} --resource-group rg --cluster-name aks1 --name ${POOL_DEFAULT}`,
        title: 'aks-rdma-action: cleanup failed'
      }
    ])
    expect(summary().split('\n')[0]).toBe('### Cleanup (post step): failed')
  })

  it('fails for the cluster too, and the pool it held is then read on its own', async () => {
    setInputs({
      ...APPLY,
      cleanup: 'cluster',
      'create-cluster': 'true',
      location: 'eastus',
      'auth-type': 'oidc'
    })
    setState({
      [STATE.runId]: RUN_ID,
      [STATE.clusterSubmitted]: submitted()
    })
    const post = await runPost()
    expect(post.exitCode).toBe(1)
    expect(post.cleanup.map(e => [e.resource, e.name, e.result])).toEqual([
      ['cluster', 'rg/aks1', 'failed'],
      ['node-pool', POOL_DEFAULT, 'skipped']
    ])
    expect(log.errors.map(e => e.message.split(':')[0])).toEqual([
      'cluster rg/aks1 was created by this run but is still there'
    ])
  })
})

describe('runPost: an Azure cleanup that throws', () => {
  it('marks each saved create failed with why, and fails the post step', async () => {
    breakCleanupLog()
    setInputs(APPLY)
    setState({
      [STATE.runId]: RUN_ID,
      [STATE.clusterSubmitted]: submitted(),
      [STATE.nodePoolSubmitted]: submitted()
    })
    const reason = 'cleanup failed: stdout closed'
    const post = await runPost()
    expect(post).toStrictEqual({ exitCode: 1, cleanup: clusterAndPool('failed', reason) })
    expect(log.warnings).toEqual([`post: ${reason}`])
    expect(log.errors).toEqual([
      {
        message: `cluster rg/aks1 was created by this run but is still there: ${reason}. Delete it with: az aks delete --subscription ${APPLY['subscription-id']} --resource-group rg --name aks1`,
        title: 'aks-rdma-action: cleanup failed'
      },
      {
        message: `node-pool ${POOL_DEFAULT} was created by this run but is still there: ${reason}. Delete it with: az aks nodepool delete --subscription ${APPLY['subscription-id']} --resource-group rg --cluster-name aks1 --name ${POOL_DEFAULT}`,
        title: 'aks-rdma-action: cleanup failed'
      }
    ])
  })

  it('names the saved pool, and only the creates that were saved', async () => {
    breakCleanupLog()
    setInputs(APPLY)
    setState({
      [STATE.runId]: RUN_ID,
      [STATE.nodePoolSubmitted]: submitted('saved')
    })
    expect((await runPost()).cleanup).toStrictEqual([
      { resource: 'node-pool', name: 'saved', result: 'failed', reason: 'cleanup failed: stdout closed' }
    ])
    setState({ [STATE.nodePoolSubmitted]: '' })
    expect(await runPost()).toStrictEqual({
      exitCode: 0,
      cleanup: []
    })
  })
})

describe('runPost: temp paths', () => {
  const linux = process.platform === 'linux' && existsSync(`/proc/${process.pid}/comm`)
  ;(linux ? it : it.skip)('reports a path it could not remove as failed, a warning only', async () => {
    // /proc/<pid> as RUNNER_TEMP: its files cannot be removed, even by root.
    setInputs({ mode: 'bogus' })
    const procDir = realpathSync(`/proc/${process.pid}`)
    process.env.RUNNER_TEMP = procDir
    const comm = path.join(procDir, 'comm')
    setState({ [STATE.tempPaths]: JSON.stringify([comm]), [STATE.kubeconfig]: comm })
    const post = await runPost()
    expect(post.exitCode).toBe(0)
    expect(post.cleanup).toHaveLength(1)
    const [e] = post.cleanup
    expect(e).toMatchObject({ resource: 'kubeconfig', name: 'comm', result: 'failed' })
    expect(e.reason).toMatch(/^E[A-Z]+[,:] /)
    expect(log.warnings).toEqual([`post: could not remove comm: ${e.reason}`])
    expect(log.errors).toEqual([])
    expect(existsSync(comm)).toBe(true)
  })

  it('removes what lies inside RUNNER_TEMP, refuses what lies or leads outside, and says so', async () => {
    setInputs({ mode: 'bogus' })
    const inFile = path.join(runnerTemp, 'a.txt')
    const inDir = path.join(runnerTemp, 'charts')
    const outFile = path.join(outside, 'precious.txt')
    const link = path.join(runnerTemp, 'link-out')
    const dangling = path.join(runnerTemp, 'dangling')
    const viaLink = path.join(runnerTemp, 'link-out', 'precious.txt')
    const gone = path.join(runnerTemp, 'gone.txt')
    const goneDeep = path.join(runnerTemp, 'no-dir', 'x')
    const goneOutside = path.join(outside, 'never.txt')
    writeFileSync(inFile, 'a')
    mkdirSync(path.join(inDir, 'deep'), { recursive: true })
    writeFileSync(path.join(inDir, 'deep', 'v.yaml'), 'v')
    writeFileSync(outFile, 'keep me')
    symlinkSync(outside, link)
    symlinkSync(path.join(runnerTemp, 'nowhere'), dangling)
    setState({
      [STATE.tempPaths]: JSON.stringify([
        inFile,
        7,
        inDir,
        outFile,
        viaLink,
        link,
        dangling,
        gone,
        goneDeep,
        goneOutside,
        null
      ])
    })
    const post = await runPost()
    expect(post).toEqual({ exitCode: 0, cleanup: [] })
    expect(existsSync(inFile)).toBe(false)
    expect(existsSync(inDir)).toBe(false)
    expect(readFileSync(outFile, 'utf8')).toBe('keep me')
    expect(existsSync(link)).toBe(false)
    expect(existsSync(outside)).toBe(true)
    expect(() => readFileSync(dangling)).toThrow()
    expect(log.lines).toEqual([
      'info: post: the inputs were invalid, so the main step started nothing; nothing to clean up',
      'info: post: removed a.txt',
      'info: post: removed charts',
      `info: post: not removing ${outFile}: outside RUNNER_TEMP`,
      `info: post: not removing ${viaLink}: outside RUNNER_TEMP`,
      'info: post: removed link-out',
      'info: post: removed dangling',
      `info: post: not removing ${goneOutside}: outside RUNNER_TEMP`
    ])
    expect(summary()).toBe('')
  })

  it('gives the kubeconfig its own entry: deleted, kept outside RUNNER_TEMP, or already gone', async () => {
    setInputs({ mode: 'bogus' })
    const entries = async (kubeconfig: string, paths: string[]): Promise<unknown> => {
      setState({ [STATE.tempPaths]: JSON.stringify(paths), [STATE.kubeconfig]: kubeconfig })
      return (await runPost()).cleanup
    }
    const outKube = path.join(outside, 'kubeconfig')
    writeFileSync(outKube, 'k')
    expect(await entries(outKube, [outKube])).toEqual([
      { resource: 'kubeconfig', name: 'kubeconfig', result: 'kept', reason: 'outside RUNNER_TEMP' }
    ])
    expect(existsSync(outKube)).toBe(true)
    const inKube = path.join(runnerTemp, 'sub', '..', 'kube.yaml')
    expect(await entries(inKube, [path.join(runnerTemp, 'kube.yaml')])).toEqual([
      { resource: 'kubeconfig', name: 'kube.yaml', result: 'skipped', reason: 'already gone' }
    ])
    const deep = path.join(runnerTemp, 'missing-dir', 'kubeconfig')
    expect(await entries(deep, [deep])).toEqual([
      { resource: 'kubeconfig', name: 'kubeconfig', result: 'skipped', reason: 'already gone' }
    ])
    // Another path than the kubeconfig gets no entry.
    expect(await entries(path.join(runnerTemp, 'kubeconfig'), [deep])).toEqual([])
  })

  it('takes a saved list that is not JSON, or not a list, as nothing to remove', async () => {
    setInputs({ mode: 'bogus' })
    const f = path.join(runnerTemp, 'f')
    writeFileSync(f, 'f')
    setState({ [STATE.tempPaths]: 'not json', [STATE.kubeconfig]: f })
    expect((await runPost()).cleanup).toEqual([])
    setState({ [STATE.tempPaths]: JSON.stringify({ 0: f }) })
    expect((await runPost()).cleanup).toEqual([])
    expect(existsSync(f)).toBe(true)
  })

  it('refuses every path when RUNNER_TEMP is not set', async () => {
    setInputs({ mode: 'bogus' })
    delete process.env.RUNNER_TEMP
    const f = path.join(runnerTemp, 'f')
    writeFileSync(f, 'f')
    const missing = path.join(runnerTemp, 'missing')
    setState({ [STATE.tempPaths]: JSON.stringify([f, missing]), [STATE.kubeconfig]: missing })
    expect((await runPost()).cleanup).toEqual([
      { resource: 'kubeconfig', name: 'missing', result: 'kept', reason: 'outside RUNNER_TEMP' }
    ])
    expect(existsSync(f)).toBe(true)
  })
})

describe('runPost: the JSON report', () => {
  it("adds the post section to the main step's report inside RUNNER_TEMP", async () => {
    setInputs({ mode: 'bogus' })
    const report = path.join(runnerTemp, 'report.json')
    const kubeconfig = path.join(runnerTemp, 'kubeconfig')
    writeFileSync(report, JSON.stringify({ result: 'success', post: 'old' }))
    writeFileSync(kubeconfig, 'k')
    setState({
      [STATE.reportPath]: report,
      [STATE.tempPaths]: JSON.stringify([kubeconfig]),
      [STATE.kubeconfig]: kubeconfig
    })
    const post = await runPost()
    const text = readFileSync(report, 'utf8')
    expect(text).toBe(
      JSON.stringify(
        {
          result: 'success',
          post: { exitCode: 0, cleanup: [{ resource: 'kubeconfig', name: 'kubeconfig', result: 'deleted' }] }
        },
        null,
        2
      ) + '\n'
    )
    expect(JSON.parse(text).post).toEqual(post)
  })

  it('leaves a report outside RUNNER_TEMP, a folder, a missing one and one it cannot read as they are', async () => {
    setInputs({ mode: 'bogus' })
    const outReport = path.join(outside, 'report.json')
    writeFileSync(outReport, '{}')
    setState({ [STATE.reportPath]: outReport })
    await runPost()
    expect(readFileSync(outReport, 'utf8')).toBe('{}')
    expect(log.warnings).toEqual([
      'post: the saved report path is not inside RUNNER_TEMP; the cleanup is not added to it'
    ])

    log.warnings.length = 0
    const dir = path.join(runnerTemp, 'report-dir')
    mkdirSync(dir)
    setState({ [STATE.reportPath]: dir })
    await runPost()
    setState({ [STATE.reportPath]: path.join(runnerTemp, 'missing.json') })
    await runPost()
    expect(log.warnings).toEqual([])

    const bad = path.join(runnerTemp, 'bad.json')
    writeFileSync(bad, '{oops')
    setState({ [STATE.reportPath]: bad })
    await runPost()
    expect(readFileSync(bad, 'utf8')).toBe('{oops')
    expect(log.warnings).toHaveLength(1)
    expect(log.warnings[0]).toMatch(
      new RegExp(`^post: could not add the cleanup to the report ${bad}: .*JSON`)
    )

    // A link to a report outside is not followed.
    log.warnings.length = 0
    const link = path.join(runnerTemp, 'report-link.json')
    symlinkSync(outReport, link)
    setState({ [STATE.reportPath]: link })
    await runPost()
    expect(readFileSync(outReport, 'utf8')).toBe('{}')
    expect(log.warnings).toEqual([])
  })
})

describe('runPost: the Lease', () => {
  const notFound = apiFailure(404, 'NotFound', 'leases.coordination.k8s.io "aks-rdma-action" not found')
  let api: LocalApiServer
  let kubeconfig: string
  beforeAll(async () => {
    api = await startLocalApiServer(notFound)
  })
  afterAll(() => api.close())
  beforeEach(() => {
    api.requests.length = 0
    kubeconfig = path.join(runnerTemp, 'kubeconfig')
    api.writeKubeconfig(kubeconfig)
    setInputs({ mode: 'verify', kubeconfig })
  })
  const lease = 'kube-system/aks-rdma-action'
  const leasePath = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/aks-rdma-action'

  it('says a missing kubeconfig file leaves nothing to release', async () => {
    setState({ [STATE.runId]: RUN_ID, [STATE.kubeconfig]: path.join(runnerTemp, 'gone') })
    expect((await runPost()).cleanup).toEqual([
      { resource: 'lease', name: lease, result: 'skipped', reason: 'no kubeconfig' }
    ])
    expect(api.requests).toEqual([])
  })

  it('skips a Lease this run does not hold, saying whether the main step released it', async () => {
    api.answer = notFound
    setState({ [STATE.runId]: RUN_ID, [STATE.kubeconfig]: kubeconfig })
    expect((await runPost()).cleanup).toEqual([
      { resource: 'lease', name: lease, result: 'skipped', reason: 'this run did not hold it' }
    ])
    expect(api.requests).toEqual([`GET ${leasePath}`])
    setState({ [STATE.leaseReleased]: 'true' })
    expect((await runPost()).cleanup).toEqual([
      { resource: 'lease', name: lease, result: 'skipped', reason: 'the main step took it and released it' }
    ])
    expect(log.lines).not.toContain('info: post: released the Lease this run held')
  })

  it('releases the Lease this run holds', async () => {
    const held = {
      status: 200,
      body: {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'aks-rdma-action', namespace: 'kube-system', uid: 'u1', resourceVersion: '5' },
        spec: { holderIdentity: RUN_ID, leaseDurationSeconds: 60 }
      }
    }
    api.answer = held
    setState({ [STATE.runId]: RUN_ID, [STATE.kubeconfig]: kubeconfig })
    const post = await runPost()
    expect(post.cleanup).toEqual([{ resource: 'lease', name: lease, result: 'deleted' }])
    expect(api.requests).toEqual([`GET ${leasePath}`, `DELETE ${leasePath}`])
    expect(log.lines).toContain('info: post: released the Lease this run held')
  })

  it('reports a Lease it could not read as failed, a warning only', async () => {
    api.answer = apiFailure(403, 'Forbidden', 'no')
    setState({ [STATE.runId]: RUN_ID, [STATE.kubeconfig]: kubeconfig })
    const post = await runPost()
    expect(post.exitCode).toBe(0)
    expect(post.cleanup).toHaveLength(1)
    const [e] = post.cleanup
    expect(e).toMatchObject({ resource: 'lease', name: lease, result: 'failed' })
    expect(log.warnings).toEqual([`post: could not release the Lease: ${e.reason}`])
    expect(log.errors).toEqual([])
    expect(summary()).toContain('| lease | `kube-system/aks-rdma-action` | ❌ failed |')
  })
})

describe('saving the state', () => {
  it('writes each piece of state to GITHUB_STATE, as the post step reads it back', () => {
    const stateFile = path.join(runnerTemp, 'state')
    writeFileSync(stateFile, '')
    process.env.GITHUB_STATE = stateFile
    const read = (): Record<string, string> => parseFileCommands(readFileSync(stateFile, 'utf8'))
    const list: string[] = ['/tmp/a']
    rememberTempPath('/tmp/b', list)
    expect(list).toEqual(['/tmp/a', '/tmp/b'])
    expect(read()).toEqual({ [STATE.tempPaths]: '["/tmp/a","/tmp/b"]' })
    const created = { createdBy: RUN_ID, resourceGroup: 'rg', cluster: 'aks1' }
    rememberCreateSubmitted('cluster', created)
    rememberCreateSubmitted('node-pool', { ...created, pool: 'p' })
    expect(read()['cluster-create-submitted']).toBe(JSON.stringify(created))
    expect(read()['node-pool-create-submitted']).toBe(JSON.stringify({ ...created, pool: 'p' }))
    forgetCreateSubmitted('node-pool')
    expect(read()['node-pool-create-submitted']).toBe('')
    expect(read()['cluster-create-submitted']).toBe(JSON.stringify(created))
    forgetCreateSubmitted('cluster')
    expect(read()['cluster-create-submitted']).toBe('')
    rememberLeaseReleased()
    rememberRun(RUN_ID, '/tmp/report.json')
    expect(read()).toMatchObject({
      'lease-released': 'true',
      'run-id': RUN_ID,
      'report-path': '/tmp/report.json'
    })
  })
})

describe('runPost: inputs that no longer read', () => {
  /** The main step's saved cleanup for APPLY with cleanup node-pool and a client secret. */
  function savedCleanup(): string {
    const stateFile = path.join(runnerTemp, 'state')
    writeFileSync(stateFile, '')
    process.env.GITHUB_STATE = stateFile
    setInputs({ ...APPLY, cleanup: 'node-pool', 'auth-type': 'secret', 'client-secret': 'hunter2-secret' })
    const settings = readSettings(actionInputReader, process.env, { nonce: NONCE }).settings
    rememberCleanup(settings)
    const text = readFileSync(stateFile, 'utf8')
    delete process.env.GITHUB_STATE
    return parseFileCommands(text)[STATE.cleanup]
  }

  it('saves no secret, and keeps a saved create of another identity or another pool than the inputs name', async () => {
    const saved = savedCleanup()
    expect(saved).not.toContain('hunter2-secret')
    expect(JSON.parse(saved)).toMatchObject({
      cleanup: 'node-pool',
      resourceGroup: 'rg',
      nodePool: POOL_DEFAULT
    })
    // A later step removed the values file: the inputs as a whole no longer read.
    setInputs({ 'gpu-operator-values': path.join(outside, 'removed.yaml') })
    for (const [create, input, why] of [
      [
        submitted(POOL_DEFAULT, '77-2/build/ffffffffffff'),
        {},
        /created-by identity 77-2\/build\/ffffffffffff/
      ],
      [submitted(POOL_DEFAULT), { 'node-pool': 'otherpool' }, /node pool rdmapool \(this job: otherpool\)/]
    ] as const) {
      setInputs({ 'node-pool': POOL_DEFAULT, ...input })
      setState({ [STATE.runId]: RUN_ID, [STATE.cleanup]: saved, [STATE.nodePoolSubmitted]: create })
      const post = await runPost()
      expect(post.exitCode).toBe(0)
      expect(post.cleanup).toEqual([
        expect.objectContaining({ resource: 'node-pool', result: 'kept', reason: expect.stringMatching(why) })
      ])
    }
    expect(log.warnings).toContainEqual(expect.stringContaining('post: the inputs no longer read'))
    expect(log.secrets).toContain('hunter2-secret')
  })

  it('without a saved cleanup, saved creates fail it (named, with the command); without either it does nothing', async () => {
    setInputs({ ...APPLY, 'gpu-operator-values': path.join(outside, 'removed.yaml') })
    expect(await runPost()).toEqual({ exitCode: 0, cleanup: [] })
    expect(log.lines).toContain(
      'info: post: the inputs were invalid, so the main step started nothing; nothing to clean up'
    )
    setState({ [STATE.runId]: RUN_ID, [STATE.nodePoolSubmitted]: submitted(POOL_DEFAULT) })
    const post = await runPost()
    expect(post).toEqual({
      exitCode: 1,
      cleanup: [
        {
          resource: 'node-pool',
          name: POOL_DEFAULT,
          result: 'failed',
          reason: 'the inputs no longer read and the main step saved no cleanup to act on instead'
        }
      ]
    })
    expect(log.errors.map(e => e.message)).toEqual([
      expect.stringContaining(
        `Delete it with: az aks nodepool delete --resource-group rg --cluster-name aks1 --name ${POOL_DEFAULT}`
      )
    ])
  })
})
