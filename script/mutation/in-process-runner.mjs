// A StrykerJS test-runner plugin for the mutation run (npm run mutate): it runs the Jest tests that
// jest.mutate.config.js's testMatch globs find (in the order of those globs: the unit tests, then
// the flows against the simulator), in one Node process, loading them once. Stryker instruments
// every mutant into the code at once (mutant switching), so a mutant is tested by switching it on
// and running only the tests that cover it — where Stryker's jest-runner starts Jest (module
// registry, ESM linking of each test file's graph) for every mutant: hours for this scope on 2
// cores. The tests use describe/it/it.each, the hooks, Jest's `expect`, jest.fn/spyOn and fake
// timers (script/mutation/jest-globals.mjs); TypeScript is transpiled on load
// (script/mutation/ts-hooks.mjs). Each test file runs with the environment variables the run
// started with, and with its own time limit (the config's testTimeout, or its jest.setTimeout); a
// test past it makes the mutant a Timeout, not a kill. Coverage is per test: what a file's
// beforeAll/afterAll reach counts for every test under them, and a test that shares a beforeAll
// world with earlier tests runs after them (script/mutation/test-tree.mjs). Only the test files
// that load a file being mutated are loaded at all (script/mutation/import-graph.mjs). A mutant's
// tests run cheapest file first, by the times the initial run recorded
// (script/mutation/dry-run-record.mjs), so a kill ends it early. A static mutant (code that runs
// while a module loads: tables, constants) gets fresh copies of the project's modules, loaded with
// it switched on, and runs the unit tests that load its module plus the tests that reached it while
// running — not every flow, which would cost an hour a mutant. The hit limit turns an infinite
// loop into a timeout.
import { globSync, mkdtempSync, rmSync } from 'node:fs'
import { register } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { INSTRUMENTER_CONSTANTS } from '@stryker-mutator/api/core'
import { commonTokens, declareClassPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin'
import {
  determineHitLimitReached,
  DryRunStatus,
  TestStatus,
  toMutantRunResult
} from '@stryker-mutator/api/test-runner'
import { coverageByMutant, readRecord, writeRecord } from './dry-run-record.mjs'
import { ImportGraph } from './import-graph.mjs'
import {
  blockId,
  chainOf,
  Collector,
  TestTimeoutError,
  testsUnder,
  timeoutOf,
  withPrerequisites,
  withTimeout
} from './test-tree.mjs'

const STATE = Symbol.for('aks-rdma-action.mutation-runner')
/** Jest's own default when the config sets no testTimeout. */
const JEST_DEFAULT_TIMEOUT_MS = 5_000

function message(e) {
  return e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e)
}

/** The files Stryker mutates (its `mutate` globs, `!` ones taken out), absolute. */
function mutatedFilesOf(patterns, root) {
  const out = new Set()
  for (const p of patterns) {
    const files = globSync(p.replace(/^!/, ''), { cwd: root }).map(f => path.resolve(root, f))
    for (const f of files) {
      if (p.startsWith('!')) out.delete(f)
      else out.add(f)
    }
  }
  return out
}

/** The test files of the config's testMatch globs, glob by glob, without testPathIgnorePatterns. */
function testFilesOf(config, root) {
  const ignored = (config.testPathIgnorePatterns ?? []).map(p => new RegExp(p.replace('<rootDir>', root)))
  const out = []
  for (const pattern of config.testMatch)
    for (const rel of globSync(pattern.replace('<rootDir>/', ''), { cwd: root }).sort()) {
      const file = path.resolve(root, rel)
      if (!out.includes(file) && !ignored.some(re => re.test(file))) out.push(file)
    }
  return out
}

export class InProcessRunner {
  static inject = tokens(commonTokens.logger, commonTokens.options)

  constructor(log, options) {
    this.log = log
    this.configFile = options.inProcessRunner?.jestConfig ?? 'jest.mutate.config.js'
    this.extraEnv = options.inProcessRunner?.env ?? {}
    this.unitTests = options.inProcessRunner?.unitTests ?? 'test/unit/'
    this.mutatePatterns = options.mutate ?? []
    this.envCount = 0
    /** Undefined: every test file loaded, no mutant in module-level code; else that static mutant's id. */
    this.loadedFor = undefined
    this.ns = globalThis[INSTRUMENTER_CONSTANTS.NAMESPACE] ??= {}
    this.graph = new ImportGraph()
  }

  capabilities() {
    return { reloadEnvironment: true }
  }

  async init() {
    const root = process.cwd()
    this.root = root
    const here = new URL('.', import.meta.url)
    const globalsUrl = new URL('jest-globals.mjs', here).href
    register(new URL('ts-hooks.mjs', here).href, { data: { root, globalsUrl } })
    this.globals = await import(globalsUrl)
    this.globals.installGlobals()
    const configModule = await import(pathToFileURL(path.resolve(root, this.configFile)).href)
    const config = configModule.default
    // Tests that compare documentation with the code (README tables): kept out, so a kill is behaviour's.
    this.documentationTests = (configModule.DOCUMENTATION_TESTS ?? []).map(p => new RegExp(p))
    this.timeoutMs = config.testTimeout ?? JEST_DEFAULT_TIMEOUT_MS
    // A test file that loads none of the mutated files can reach no mutant: not even loaded.
    const mutated = mutatedFilesOf(this.mutatePatterns, root)
    this.testFiles = testFilesOf(config, root).filter(t =>
      [...this.graph.closure(t)].some(f => mutated.has(f))
    )
    for (const [name, value] of Object.entries(this.extraEnv))
      process.env[name] = String(value).replace('<rootDir>', root)
    // What the tests leave in the temporary folder (a run folder per mutant, say) goes to one
    // folder of this worker, removed when the worker ends.
    this.tempRoot = mkdtempSync(path.join(tmpdir(), 'mutation-tmp-'))
    process.env.TMPDIR = this.tempRoot
    // Stryker ends a worker it recycles (or a run stopped by a signal) without always calling
    // dispose: the folder goes when the process exits, whatever ends it short of SIGKILL.
    const tempRoot = this.tempRoot
    process.once('exit', () => rmSync(tempRoot, { recursive: true, force: true }))
    for (const [signal, code] of [
      ['SIGTERM', 143],
      ['SIGINT', 130]
    ])
      process.once(signal, () => process.exit(code))
    this.startEnv = { ...process.env }
    process.on('unhandledRejection', e => this.log.debug(`unhandled rejection in a test: ${message(e)}`))
    process.on('uncaughtException', e => {
      this.uncaught ??= e
      this.log.debug(`uncaught exception in a test: ${message(e)}`)
    })
    globalThis[STATE] = {}
    await this.load(this.testFiles)
  }

  async dispose() {
    if (this.tempRoot) rmSync(this.tempRoot, { recursive: true, force: true })
  }

  /** Imports `files` (and so the project's modules) as a fresh environment. */
  async load(files) {
    const collector = new Collector(this.timeoutMs)
    globalThis[STATE].collector = collector
    const env = this.envCount++
    this.loadError = undefined
    try {
      for (const file of files) {
        collector.startFile(file, path.relative(this.root, file))
        await import(`${pathToFileURL(file).href}?mutation-env=${env}`)
      }
    } catch (e) {
      this.loadError = `loading the tests failed: ${message(e)}`
    } finally {
      globalThis[STATE].collector = undefined
    }
    this.files = collector.files
    for (const t of this.files.flatMap(testsUnder))
      if (this.documentationTests.some(re => re.test(t.id))) t.mode = 'skip'
  }

  async dryRun(options) {
    if (this.loadError) return { status: DryRunStatus.Error, errorMessage: this.loadError }
    const perTest = options.coverageAnalysis === 'perTest'
    this.blockMs = new Map()
    const own = await this.run({ tests: withPrerequisites(this.files), coverage: perTest, bail: false })
    this.ns.currentTestId = undefined
    const coverage = this.ns.mutantCoverage ?? { static: {}, perTest: {} }
    if (perTest) this.spreadHookCoverage(coverage)
    const hookMs = {}
    for (const [block, ms] of this.blockMs) {
      const rel = rootOf(block).rel
      hookMs[rel] = Math.round((hookMs[rel] ?? 0) + ms)
    }
    writeRecord(this.root, {
      testMs: Object.fromEntries(own.map(t => [t.id, Math.round(t.timeSpentMs)])),
      hookMs,
      coveredBy: coverageByMutant(coverage.perTest)
    })
    const tests = this.withSetupTime(own)
    this.blockMs = undefined
    return {
      status: DryRunStatus.Complete,
      tests,
      ...(options.coverageAnalysis !== 'off' ? { mutantCoverage: coverage } : {})
    }
  }

  /**
   * Each test's time as a mutant run spends it: its own, its blocks' beforeAll/afterAll and the
   * earlier tests it needs — Stryker sets a mutant's time limit from these (a flow's world is
   * built in its beforeAll: without it, every mutant of a flow would time out while it builds).
   */
  withSetupTime(results) {
    const ownMs = new Map(results.map(r => [r.id, r.timeSpentMs]))
    const byId = new Map(this.files.flatMap(f => testsUnder(f).map(t => [t.id, t])))
    return results.map(r => {
      const t = byId.get(r.id)
      if (!t) return r
      const hooks = chainOf(t).reduce((n, b) => n + (this.blockMs.get(b) ?? 0), 0)
      let before = 0
      for (const p of withPrerequisites(this.files, new Set([t.id])))
        if (p !== t) before += ownMs.get(p.id) ?? 0
      return { ...r, timeSpentMs: r.timeSpentMs + hooks + before }
    })
  }

  /** What the beforeAll/afterAll hooks of a block reached counts for every test under the block. */
  spreadHookCoverage(coverage) {
    for (const file of this.files) {
      const blocks = [file]
      for (let i = 0; i < blocks.length; i++) {
        const block = blocks[i]
        blocks.push(...block.children.filter(c => c.kind === 'block'))
        const hits = coverage.perTest[blockId(block)]
        if (!hits) continue
        delete coverage.perTest[blockId(block)]
        for (const t of testsUnder(block)) {
          const into = (coverage.perTest[t.id] ??= {})
          for (const [id, n] of Object.entries(hits)) into[id] = (into[id] ?? 0) + n
        }
      }
    }
  }

  /**
   * Loads what the mutant needs: for a static one, the test files whose modules include its file,
   * loaded with it switched on; after a static one (or when asked), every test file, clean.
   */
  async prepare(options) {
    const id = options.activeMutant.id
    if (options.mutantActivation === 'static') {
      if (this.loadedFor === id) return
      const file = path.resolve(this.root, options.sandboxFileName ?? options.activeMutant.fileName)
      const reached = new Set(this.record()?.coveredBy[id] ?? [])
      const units = this.testFiles.filter(
        t => path.relative(this.root, t).startsWith(this.unitTests) && this.graph.closure(t).has(file)
      )
      const runtime = this.testFiles.filter(t =>
        [...reached].some(r => r.startsWith(`${path.relative(this.root, t)}: `))
      )
      this.ns.activeMutant = id
      await this.load(this.testFiles.filter(t => units.includes(t) || runtime.includes(t)))
      this.loadedFor = id
      this.staticTests = new Set(
        this.files.flatMap(f =>
          testsUnder(f)
            .filter(t => units.includes(f.file) || reached.has(t.id))
            .map(t => t.id)
        )
      )
    } else if (this.loadedFor !== undefined || options.reloadEnvironment) {
      delete this.ns.activeMutant
      await this.load(this.testFiles)
      this.loadedFor = undefined
    }
  }

  async mutantRun(options) {
    this.ns.currentTestId = undefined
    await this.prepare(options)
    this.ns.activeMutant = options.activeMutant.id
    this.ns.hitLimit = options.hitLimit
    this.ns.hitCount = options.hitLimit ? 0 : undefined
    try {
      if (this.loadError)
        return toMutantRunResult(
          { status: DryRunStatus.Error, errorMessage: this.loadError },
          options.disableBail
        )
      const wanted = options.testFilter
        ? new Set(options.testFilter)
        : options.mutantActivation === 'static'
          ? this.staticTests
          : undefined
      const tests = await this.run({
        tests: withPrerequisites(this.files, wanted),
        coverage: false,
        bail: !options.disableBail
      })
      const outcome = determineHitLimitReached(this.ns.hitCount, this.ns.hitLimit) ??
        timedOut(tests) ?? {
          status: DryRunStatus.Complete,
          tests
        }
      return toMutantRunResult(outcome, options.disableBail)
    } finally {
      delete this.ns.activeMutant
      this.ns.hitLimit = undefined
      this.ns.hitCount = undefined
    }
  }

  /** The initial run's record (read once it exists: the initial run may be another process's). */
  record() {
    this.dryRun_ ??= readRecord(this.root)
    return this.dryRun_
  }

  /** The loaded files, cheapest first for `tests` by the initial run's times (load order without one). */
  byCost(tests) {
    const r = this.record()
    if (!r) return this.files
    const cost = f =>
      (r.hookMs[f.rel] ?? 0) +
      testsUnder(f).reduce((n, t) => n + (tests.has(t) ? (r.testMs[t.id] ?? 0) : 0), 0)
    return this.files
      .map((f, i) => ({ f, i, c: cost(f) }))
      .sort((a, b) => a.c - b.c || a.i - b.i)
      .map(x => x.f)
  }

  /** Before each file: the run's environment variables, working folder, exit code and real timers. */
  resetProcess() {
    for (const name of Object.keys(process.env)) if (!(name in this.startEnv)) delete process.env[name]
    Object.assign(process.env, this.startEnv)
    process.exitCode = undefined
    if (process.cwd() !== this.root) process.chdir(this.root)
    this.globals.restoreRealTimers()
  }

  /** Runs `tests` (a set) with their hooks, file by file in load order. */
  async run({ tests, coverage, bail }) {
    const results = []
    const state = { stop: false }
    for (const file of coverage ? this.files : this.byCost(tests)) {
      if (state.stop) break
      if (!testsUnder(file).some(t => tests.has(t))) continue
      this.resetProcess()
      const started = performance.now()
      const before = results.length
      await this.runBlock(file, { tests, coverage, bail, results, state })
      if (coverage)
        this.log.info(
          `${file.rel}: ${results.length - before} test(s), ${results.slice(before).filter(r => r.status === TestStatus.Failed).length} failed, ${Math.round(performance.now() - started)} ms`
        )
    }
    process.exitCode = undefined
    return results
  }

  async runHooks(block, kind, coverage) {
    if (coverage) this.ns.currentTestId = blockId(block)
    const started = performance.now()
    try {
      for (const h of block.hooks[kind]) await withTimeout(h, rootOf(block).timeout, kind)
    } finally {
      this.blockMs?.set(block, (this.blockMs.get(block) ?? 0) + performance.now() - started)
    }
  }

  async runBlock(block, ctx) {
    const mine = testsUnder(block).filter(t => ctx.tests.has(t))
    if (!mine.length) return
    let failedHook
    try {
      await this.runHooks(block, 'beforeAll', ctx.coverage)
    } catch (e) {
      failedHook = e
    }
    for (const child of block.children) {
      if (ctx.state.stop) break
      if (child.kind === 'block') {
        if (!failedHook) await this.runBlock(child, ctx)
        else
          for (const t of testsUnder(child).filter(x => ctx.tests.has(x)))
            ctx.results.push(this.failed(t, failedHook, 0))
        continue
      }
      if (!ctx.tests.has(child)) continue
      const r = failedHook ? this.failed(child, failedHook, 0) : await this.runTest(child, ctx.coverage)
      ctx.results.push(r)
      if (ctx.bail && r.status === TestStatus.Failed) ctx.state.stop = true
    }
    try {
      await this.runHooks(block, 'afterAll', ctx.coverage)
    } catch (e) {
      this.log.debug(`afterAll failed: ${message(e)}`)
    }
  }

  failed(t, error, ms) {
    return {
      id: t.id,
      name: t.fullName,
      fileName: t.file,
      timeSpentMs: ms,
      status: TestStatus.Failed,
      failureMessage: message(error),
      timedOut: error instanceof TestTimeoutError
    }
  }

  async runTest(t, coverage) {
    const chain = chainOf(t)
    const limit = timeoutOf(t)
    const started = performance.now()
    // What runs after the test (its leftovers) counts for it too, until the next test or hook.
    if (coverage) this.ns.currentTestId = t.id
    this.uncaught = undefined
    let error
    try {
      for (const b of chain) for (const h of b.hooks.beforeEach) await withTimeout(h, limit, 'beforeEach')
      await withTimeout(t.body, limit, t.fullName)
    } catch (e) {
      error = e
    } finally {
      for (const b of [...chain].reverse())
        for (const h of b.hooks.afterEach)
          try {
            await withTimeout(h, limit, 'afterEach')
          } catch (e) {
            error ??= e
          }
      this.globals.restoreRealTimers()
    }
    error ??= this.uncaught
    const ms = performance.now() - started
    if (error) return this.failed(t, error, ms)
    return { id: t.id, name: t.fullName, fileName: t.file, timeSpentMs: ms, status: TestStatus.Success }
  }
}

function rootOf(block) {
  let root = block
  while (root.parent) root = root.parent
  return root
}

/** A run whose failures are all time limits is a Timeout (what the mutant did is unknown). */
function timedOut(tests) {
  const failed = tests.filter(t => t.status === TestStatus.Failed)
  if (!failed.length || failed.some(t => !t.timedOut)) return undefined
  return { status: DryRunStatus.Timeout, reason: failed[0].failureMessage.split('\n')[0] }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'in-process', InProcessRunner)]

export const strykerValidationSchema = {
  $schema: 'http://json-schema.org/draft-07/schema',
  type: 'object',
  properties: {
    inProcessRunner: {
      description:
        'The in-process test runner: the Jest config whose testMatch lists the test files, and environment variables for the tests (<rootDir> is the sandbox).',
      type: 'object',
      properties: {
        jestConfig: { type: 'string' },
        env: { type: 'object' },
        unitTests: {
          type: 'string',
          description: 'The folder of the unit tests (a static mutant runs those that load its module).'
        }
      },
      additionalProperties: false
    }
  }
}
