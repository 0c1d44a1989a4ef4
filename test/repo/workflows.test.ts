// Checks the workflow files (the examples in workflows/ and the project's own .github/workflows/)
// with GitHub's own parser (@actions/workflow-parser), action.yml with the same package's action
// parser, and what each file must do: OIDC permissions, every other action pinned by a full commit
// SHA with its release in a comment (this action's placeholder reference says how to pin it), every
// `with:` key a real input (enum values valid), every output it reads a real output, and the
// behaviour each example promises (create + clean up on a dispatch or a label only, in a protected
// environment whose name is the federated subject — its `if:` evaluated with GitHub's expression
// evaluator —, drift with a per-cluster concurrency group).
import { describe, expect, test } from '@jest/globals'
import {
  convertWorkflowTemplate,
  NoOperationTraceWriter,
  parseWorkflow,
  type WorkflowTemplate
} from '@actions/workflow-parser'
import { convertActionTemplate, parseAction } from '@actions/workflow-parser/actions/index'
import { data, Evaluator, Lexer, Parser } from '@actions/expressions'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parse as parseYaml } from 'yaml'
import { INPUTS, OUTPUTS, type InputDefinition } from '../../src/settings/input-definitions.js'

const ROOT = process.cwd()
const EXAMPLES = path.join(ROOT, 'workflows')
const OWN = path.join(ROOT, '.github', 'workflows')
const ACTION_REF = 'org/aks-rdma-action@v1'

type Doc = Record<string, any>
interface Step {
  id?: string
  uses?: string
  run?: string
  if?: string
  with?: Record<string, unknown>
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter(f => /\.ya?ml$/.test(f))
    .sort()
    .map(f => path.join(dir, f))
}

const exampleFiles = yamlFiles(EXAMPLES)
const ownFiles = yamlFiles(OWN)
const rel = (f: string): string => path.relative(ROOT, f)

/** Parses and converts a workflow with GitHub's parser; returns the problems it reports. */
async function workflowProblems(name: string, content: string): Promise<string[]> {
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter())
  const problems = parsed.context.errors.getErrors().map(e => e.message)
  if (problems.length || !parsed.value) return problems.length ? problems : [`${name}: nothing parsed`]
  const template: WorkflowTemplate = await convertWorkflowTemplate(parsed.context, parsed.value)
  // Conversion reports into the same context (and copies into template.errors): one list.
  return [
    ...new Set([
      ...(template.errors ?? []).map(e => e.Message),
      ...parsed.context.errors.getErrors().map(e => e.message)
    ])
  ]
}

function actionProblems(name: string, content: string): { problems: string[]; template?: any } {
  const parsed = parseAction({ name, content }, new NoOperationTraceWriter())
  const problems = parsed.context.errors.getErrors().map(e => e.message)
  if (problems.length || !parsed.value) return { problems }
  const template = convertActionTemplate(parsed.context, parsed.value)
  return { problems: parsed.context.errors.getErrors().map(e => e.message), template }
}

const load = (f: string): Doc => parseYaml(readFileSync(f, 'utf8')) as Doc
const jobsOf = (doc: Doc): Array<[string, Doc]> => Object.entries(doc.jobs ?? {}) as Array<[string, Doc]>
const stepsOf = (job: Doc): Step[] => (job.steps ?? []) as Step[]
const isThisAction = (s: Step): boolean =>
  s.uses === './' || s.uses?.startsWith('org/aks-rdma-action@') === true

/** The action's steps of a workflow, with their job. */
function actionSteps(doc: Doc): Array<{ job: string; jobDoc: Doc; step: Step }> {
  return jobsOf(doc).flatMap(([job, jobDoc]) =>
    stepsOf(jobDoc)
      .filter(isThisAction)
      .map(step => ({ job, jobDoc, step }))
  )
}

const inputByName = new Map<string, InputDefinition>(INPUTS.map(i => [i.name, i]))
const outputNames = new Set(OUTPUTS.map(o => o.name))

/** Problems with the `with:` of one action step: unknown inputs, literal values of the wrong kind. */
function withProblems(step: Step): string[] {
  const out: string[] = []
  for (const [key, raw] of Object.entries(step.with ?? {})) {
    const def = inputByName.get(key)
    if (!def) {
      out.push(`unknown input ${key}`)
      continue
    }
    const value = String(raw)
    if (value.includes('${{')) continue // an expression: its value is known only at run time
    if (def.kind === 'enum' && !def.values!.includes(value))
      out.push(`${key}: "${value}" is not one of ${def.values!.join(', ')}`)
    if (def.kind === 'boolean' && value !== 'true' && value !== 'false')
      out.push(`${key}: "${value}" is not true or false`)
    if (def.kind === 'integer' && !/^\d+$/.test(value)) out.push(`${key}: "${value}" is not a whole number`)
  }
  return out
}

/** `steps.<id>.outputs.<name>` references in a text, for a given step id. */
function outputRefs(text: string, id: string): string[] {
  const re = new RegExp(`steps\\.${id.replace(/[-]/g, '\\-')}\\.outputs\\.([A-Za-z0-9_-]+)`, 'g')
  return [...text.matchAll(re)].map(m => m[1])
}

const literal = (v: unknown): string => String(v)

/** A remote action reference (`owner/repo[/path]@ref`), not a local path or a container. */
const isRemoteAction = (uses: string): boolean => !uses.startsWith('./') && !uses.startsWith('docker://')

/** Every `uses:` line of a file: the reference and the comment after it. */
function usesLines(text: string): Array<{ line: number; uses: string; comment: string }> {
  return text.split('\n').flatMap((l, i) => {
    const m = /^\s*(?:-\s+)?uses:\s*(\S+)(?:\s+#\s*(.*))?$/.exec(l)
    return m ? [{ line: i + 1, uses: m[1], comment: m[2] ?? '' }] : []
  })
}

/**
 * Problems with how a file pins its actions: each remote action other than this one's placeholder is
 * `owner/repo[/path]@<40 hex>` with its release in a comment (`# v1.2.3`); the placeholder says how to pin it.
 */
function pinProblems(text: string): string[] {
  const out: string[] = []
  for (const { line, uses, comment } of usesLines(text)) {
    if (!isRemoteAction(uses)) continue
    if (uses === ACTION_REF) {
      if (!/pin .*commit SHA .*README/.test(comment))
        out.push(`line ${line}: ${uses} without its pinning note`)
      continue
    }
    if (!/^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@[0-9a-f]{40}$/.test(uses))
      out.push(`line ${line}: ${uses} is not pinned by a full commit SHA`)
    else if (!/^v\d+\.\d+\.\d+$/.test(comment)) out.push(`line ${line}: ${uses} has no # vX.Y.Z comment`)
  }
  return out
}

/** Evaluates a job's `if:` (GitHub's expression evaluator) for a `github` context. */
function jobRuns(condition: string, github: Record<string, unknown>): boolean {
  const lexed = new Lexer(condition).lex()
  const expr = new Parser(lexed.tokens, ['github'], []).parse()
  const context = JSON.parse(JSON.stringify({ github }), data.reviver) as data.Dictionary
  // The conditions compare and combine (==, &&, ||): the result is a boolean.
  return new Evaluator(expr, context).evaluate().coerceString() === 'true'
}

describe('every workflow file parses with @actions/workflow-parser', () => {
  test('the example and project workflow folders are not empty', () => {
    expect(exampleFiles.map(f => path.basename(f))).toEqual([
      'drift-check.yml',
      'ephemeral-cluster.yml',
      'setup-rdma.yml'
    ])
    expect(ownFiles.map(f => path.basename(f))).toEqual(expect.arrayContaining(['ci.yml']))
  })

  test.each([...exampleFiles, ...ownFiles].map(f => [rel(f), f]))('%s', async (name, file) => {
    expect(await workflowProblems(name, readFileSync(file, 'utf8'))).toEqual([])
  })

  test('the parser does report mistakes (so the checks above are not vacuous)', async () => {
    const typo =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: a/b@v1\n        wiht: {}\n'
    expect((await workflowProblems('typo.yml', typo)).join('\n')).toMatch(/Unexpected value 'wiht'/)
    const badCron = readFileSync(path.join(EXAMPLES, 'drift-check.yml'), 'utf8').replace(
      /cron: '[^']*'/,
      "cron: 'every six hours'"
    )
    expect(await workflowProblems('bad-cron.yml', badCron)).not.toEqual([])
    const badPermission = readFileSync(path.join(EXAMPLES, 'drift-check.yml'), 'utf8').replace(
      'id-token: write',
      'id-token: always'
    )
    expect(await workflowProblems('bad-permission.yml', badPermission)).not.toEqual([])
  })
})

describe('action.yml', () => {
  const content = readFileSync(path.join(ROOT, 'action.yml'), 'utf8')
  const { problems, template } = actionProblems('action.yml', content)

  test('validates against the action metadata schema of @actions/workflow-parser', () => {
    expect(problems).toEqual([])
    expect(template).toBeDefined()
  })

  test('is a node24 action with a main and an always-run post step that exist in dist/', () => {
    expect(template.name).toEqual(expect.any(String))
    expect(template.description.length).toBeGreaterThan(20)
    expect(template.runs).toEqual({
      using: 'node24',
      main: 'dist/index.js',
      post: 'dist/post.js',
      postIf: 'always()'
    })
    for (const f of [template.runs.main, template.runs.post])
      expect(existsSync(path.join(ROOT, f))).toBe(true)
  })

  test('declares exactly the inputs and outputs of src/settings/input-definitions.ts', () => {
    const inputs = template.inputs as Array<{ id: string; description?: string; default?: unknown }>
    expect(inputs.map(i => i.id)).toEqual(INPUTS.map(i => i.name))
    for (const i of inputs) {
      expect(i.description?.length).toBeGreaterThan(5)
      const def = inputByName.get(i.id)!
      expect(i.default === undefined ? undefined : literal(i.default)).toEqual(def.default)
    }
    const outputs = template.outputs as Array<{ id: string; description?: string }>
    expect(outputs.map(o => o.id)).toEqual(OUTPUTS.map(o => o.name))
    for (const o of outputs) expect(o.description?.length).toBeGreaterThan(5)
  })

  test('the schema rejects a wrong runtime and a missing description', () => {
    const r = actionProblems('bad.yml', 'name: x\nruns:\n  using: node99\n  main: a.js\n')
    expect(r.problems.join('\n')).toMatch(/node99/)
    expect(r.problems.join('\n')).toMatch(/description/)
  })
})

describe('every use of the action passes real inputs and reads real outputs', () => {
  test.each([...exampleFiles, ...ownFiles].map(f => [rel(f), f]))('%s', (_name, file) => {
    const doc = load(file)
    const text = readFileSync(file, 'utf8')
    for (const { step } of actionSteps(doc)) {
      expect(withProblems(step)).toEqual([])
      if (step.id) for (const o of outputRefs(text, step.id)) expect(outputNames).toContain(o)
    }
  })

  test('the check itself catches an unknown input and a bad enum value', () => {
    expect(
      withProblems({ uses: ACTION_REF, with: { 'node-pool-name': 'x', cleanup: 'everything' } })
    ).toEqual([
      'unknown input node-pool-name',
      'cleanup: "everything" is not one of none, node-pool, cluster'
    ])
  })
})

describe('the example workflows', () => {
  test.each(exampleFiles.map(f => [rel(f), f]))(
    '%s uses OIDC and names this action by its placeholder',
    (_name, file) => {
      const doc = load(file)
      expect(doc.permissions).toEqual({ 'id-token': 'write', contents: 'read' })
      for (const [, job] of jobsOf(doc))
        if (job.permissions) expect(job.permissions).toEqual({ 'id-token': 'write', contents: 'read' })
      const uses = actionSteps(doc).map(s => s.step.uses)
      expect(uses.length).toBeGreaterThan(0)
      for (const u of uses) expect(u).toBe(ACTION_REF)
      // The IDs come from variables or secrets, never from literals in the file.
      for (const { step } of actionSteps(doc))
        for (const k of ['client-id', 'tenant-id', 'subscription-id'])
          expect(String(step.with?.[k])).toMatch(/\$\{\{ .*(vars|secrets)\.AZURE_/)
      // A comment block at the top documents the file.
      const head = readFileSync(file, 'utf8').split('\n').slice(0, 5)
      expect(head.every(l => l.startsWith('#'))).toBe(true)
    }
  )

  test.each([...exampleFiles, ...ownFiles].map(f => [rel(f), f]))(
    '%s pins every other action by commit SHA, its release in a comment',
    (_name, file) => {
      const text = readFileSync(file, 'utf8')
      expect(pinProblems(text)).toEqual([])
      expect(
        usesLines(text).filter(u => isRemoteAction(u.uses) && u.uses !== ACTION_REF).length
      ).toBeGreaterThan(0)
    }
  )

  test('the pinning rule catches a tag, a short SHA, a missing release comment and a bare placeholder', () => {
    const sha = '3d3c42e5aac5ba805825da76410c181273ba90b1'
    expect(
      pinProblems(
        [
          '      - uses: actions/checkout@v5',
          '      - uses: actions/checkout@3d3c42e # v7.0.1',
          `      - uses: actions/checkout@${sha}`,
          `      - uses: actions/checkout@${sha} # v7.0.1`,
          '      - uses: ./',
          `        uses: ${ACTION_REF}`
        ].join('\n')
      )
    ).toEqual([
      'line 1: actions/checkout@v5 is not pinned by a full commit SHA',
      'line 2: actions/checkout@3d3c42e is not pinned by a full commit SHA',
      `line 3: actions/checkout@${sha} has no # vX.Y.Z comment`,
      `line 6: ${ACTION_REF} without its pinning note`
    ])
  })

  test.each(exampleFiles.map(f => [rel(f), f]))(
    '%s uploads the report even when the run fails',
    (_n, file) => {
      const doc = load(file)
      for (const [, job] of jobsOf(doc)) {
        const steps = stepsOf(job)
        const at = steps.findIndex(isThisAction)
        if (at < 0) continue
        const upload = steps.slice(at + 1).find(s => s.uses?.startsWith('actions/upload-artifact@'))
        expect(upload).toBeDefined()
        expect(upload!.if).toMatch(/^always\(\)/)
        expect(String(upload!.with?.path)).toMatch(/report-path|aks-rdma-action-report\.json/)
      }
    }
  )

  test('setup-rdma.yml is a reusable workflow exposing the action outputs', () => {
    const doc = load(path.join(EXAMPLES, 'setup-rdma.yml'))
    const call = doc.on.workflow_call
    expect(Object.keys(call.inputs)).toEqual(
      expect.arrayContaining([
        'resource-group',
        'cluster-name',
        'node-pool',
        'vm-size',
        'node-count',
        'benchmark-scope'
      ])
    )
    expect(call.inputs['resource-group'].required).toBe(true)
    expect(call.inputs['cluster-name'].required).toBe(true)
    expect(Object.keys(call.secrets)).toEqual(['AZURE_CLIENT_ID', 'AZURE_TENANT_ID', 'AZURE_SUBSCRIPTION_ID'])
    for (const s of Object.values(call.secrets) as Doc[]) expect(s.required).toBe(false)

    const [{ job, jobDoc, step }] = actionSteps(doc)
    expect(step.with?.mode).toBe('${{ inputs.mode }}')
    // Every workflow input reaches the action or the job (none is dead).
    const text = readFileSync(path.join(EXAMPLES, 'setup-rdma.yml'), 'utf8')
    for (const name of Object.keys(call.inputs)) expect(text).toContain(`inputs.${name} }}`)
    // workflow output → job output → step output of the action, each link real.
    const workflowOutputs = call.outputs as Record<string, { value: string }>
    for (const name of ['result', 'node-pool-action', 'rdma-nodes', 'bandwidth-gbps', 'latency-us'])
      expect(workflowOutputs[name]).toBeDefined()
    for (const [name, o] of Object.entries(workflowOutputs)) {
      expect(o.value).toBe(`\${{ jobs.${job}.outputs.${name} }}`)
      const jobOutput = String(jobDoc.outputs[name])
      const fromStep = outputRefs(jobOutput, step.id!)
      if (fromStep.length) expect(outputNames).toContain(fromStep[0])
      else expect(name).toBe('report-artifact')
    }
    const upload = stepsOf(jobDoc).find(s => s.uses?.startsWith('actions/upload-artifact@'))
    expect(upload?.with?.name).toBe(jobDoc.outputs['report-artifact'])
    expect(jobDoc.concurrency).toEqual({
      group: 'aks-rdma-${{ inputs.resource-group }}-${{ inputs.cluster-name }}',
      'cancel-in-progress': false
    })
  })

  test('ephemeral-cluster.yml creates a cluster and always deletes it', () => {
    const doc = load(path.join(EXAMPLES, 'ephemeral-cluster.yml'))
    const [{ step, jobDoc }] = actionSteps(doc)
    expect(step.with?.['create-cluster']).toBe(true)
    expect(step.with?.cleanup).toBe('cluster')
    expect(String(step.with?.location)).toMatch(/\S/)
    // A name per run: the post step deletes only what this run created.
    expect(String(step.with?.['cluster-name'])).toContain('github.run_id')
    // Not `continue-on-error` or an `if:` that could skip the action and so its post step.
    expect(step.if).toBeUndefined()
    expect(jobDoc['timeout-minutes']).toBeGreaterThanOrEqual(120)
  })

  test('ephemeral-cluster.yml runs only by hand or on its label, in the environment its federated subject names', () => {
    const file = path.join(EXAMPLES, 'ephemeral-cluster.yml')
    const doc = load(file)
    // Triggers: workflow_dispatch, and pull requests only when labelled (never every push).
    expect(Object.keys(doc.on).sort()).toEqual(['pull_request', 'workflow_dispatch'])
    expect(doc.on.pull_request).toEqual({ types: ['labeled'] })
    const [{ jobDoc }] = actionSteps(doc)
    // A protected environment; the federated credential's subject is that environment's.
    expect(jobDoc.environment).toBe('aks-rdma-e2e')
    const header = readFileSync(file, 'utf8')
      .split('\n')
      .filter(l => l.startsWith('#'))
      .join('\n')
    expect(header).toContain(`repo:<owner>/<repo>:environment:${jobDoc.environment}`)
    expect(header).toMatch(/required reviewers/)
    // Who runs: evaluated as GitHub evaluates the job's `if:`.
    const pr = (label: string, headRepo: string) => ({
      event_name: 'pull_request',
      repository: 'org/repo',
      event: {
        action: 'labeled',
        label: { name: label },
        pull_request: { number: 7, head: { repo: { full_name: headRepo } } }
      }
    })
    const runs = (github: Record<string, unknown>) => jobRuns(String(jobDoc.if), github)
    expect(runs({ event_name: 'workflow_dispatch', repository: 'org/repo', event: {} })).toBe(true)
    expect(runs(pr('rdma-e2e', 'org/repo'))).toBe(true)
    expect(runs(pr('documentation', 'org/repo'))).toBe(false) // another label
    expect(runs(pr('rdma-e2e', 'someone/fork'))).toBe(false) // a fork gets no OIDC token
    // One run per pull request or branch, queued on the job (a skipped run takes no place).
    expect(doc.concurrency).toBeUndefined()
    expect(jobDoc.concurrency['cancel-in-progress']).toBe(false)
  })

  test('drift-check.yml runs on a schedule, read-only, per-cluster concurrency, failing on drift', () => {
    const doc = load(path.join(EXAMPLES, 'drift-check.yml'))
    expect(doc.on.schedule[0].cron).toMatch(/^\S+ \S+ \S+ \S+ \S+$/)
    expect(Object.keys(doc.on)).toContain('workflow_dispatch')
    const [{ step, jobDoc }] = actionSteps(doc)
    expect(step.with?.mode).toBe('drift')
    expect(step.with?.['fail-on-drift']).toBe(true)
    expect(step.with?.cleanup ?? 'none').toBe('none')
    expect(jobDoc.concurrency['cancel-in-progress']).toBe(false)
    expect(jobDoc.concurrency.group).toMatch(/cluster-name/)
    // The same group name as setup-rdma.yml, so a check waits for an apply on the same cluster.
    const setup = load(path.join(EXAMPLES, 'setup-rdma.yml'))
    const setupJob = jobsOf(setup)[0][1]
    const shape = (g: string): string => g.replace(/\$\{\{ \w+\.([\w-]+) \}\}/g, '<$1>')
    expect(shape(jobDoc.concurrency.group)).toBe(shape(setupJob.concurrency.group))
  })
})

describe("the project's own CI", () => {
  const ci = load(path.join(OWN, 'ci.yml'))

  test('runs the action from the repository in plan mode', () => {
    const plan = actionSteps(ci).filter(s => s.step.uses === './')
    expect(plan.map(s => s.step.with?.mode)).toContain('plan')
  })

  test('runs the simulator from the committed CLI on Node 24 and uploads its report', () => {
    const job = jobsOf(ci).find(([, j]) =>
      stepsOf(j).some(s => /node dist\/cli\.js simulate/.test(s.run ?? ''))
    )
    expect(job).toBeDefined()
    const steps = stepsOf(job![1])
    const setupNode = steps.find(s => s.uses?.startsWith('actions/setup-node@'))
    expect(String(setupNode?.with?.['node-version'])).toBe('24')
    const run = steps.find(s => /simulate/.test(s.run ?? ''))!
    const reportFlag = /--report "?([^"\s]+)"?/.exec(run.run!)?.[1]
    expect(reportFlag).toBe('$RUNNER_TEMP/simulate-report.json')
    const upload = steps.find(s => s.uses?.startsWith('actions/upload-artifact@'))
    expect(upload?.if).toBe('always()')
    expect(upload?.with?.path).toBe('${{ runner.temp }}/simulate-report.json')
  })

  test('checks that dist/ is fresh once: npm run ci ends with check-dist, and no other job builds', () => {
    const scripts = (
      JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>
      }
    ).scripts
    expect(
      scripts.ci
        .split('&&')
        .map(s => s.trim())
        .at(-1)
    ).toBe('npm run check-dist')
    const runs = ownFiles.flatMap(f =>
      jobsOf(load(f)).flatMap(([job, jobDoc]) =>
        stepsOf(jobDoc).flatMap(s => (s.run ? [{ file: path.basename(f), job, run: s.run }] : []))
      )
    )
    expect(runs.filter(r => /\bnpm run ci\b/.test(r.run)).map(r => `${r.file}:${r.job}`)).toEqual([
      'ci.yml:test'
    ])
    // Nothing else rebuilds dist/ or compares it: the check runs once per push.
    expect(runs.filter(r => /npm run (build|bundle|check-dist)\b|git diff .*dist\//.test(r.run))).toEqual([])
  })
})
