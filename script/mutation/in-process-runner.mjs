// A StrykerJS test-runner plugin for the mutation run (npm run mutate): it runs the Jest unit tests
// that jest.mutate.config.js's testMatch globs find, in one Node process, loading them once. Stryker instruments
// every mutant into the code at once (mutant switching), so a mutant is tested by switching it on
// and running only the tests that cover it — milliseconds, where Stryker's jest-runner starts Jest
// (module registry, ESM linking of each test file's graph) for every mutant: seconds each here,
// hours for the whole scope. The tests use describe/it/it.each, the hooks and Jest's
// `expect` (script/mutation/jest-globals.mjs); TypeScript is transpiled on load
// (script/mutation/ts-hooks.mjs). A static mutant (module-level code) gets a fresh copy of the
// project's modules, loaded with it switched on. Coverage is per test, as Stryker's jest-runner
// gives it, and the hit limit turns an infinite loop into a timeout.
import { globSync } from 'node:fs'
import { register } from 'node:module'
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

const STATE = Symbol.for('aks-rdma-action.mutation-runner')
const DEFAULT_TIMEOUT_MS = 10_000

/** The describe/it tree of the loaded test files. */
class Collector {
  constructor() {
    this.files = []
    this.stack = []
    this.defaultTimeout = DEFAULT_TIMEOUT_MS
  }

  block(title, parent, mode) {
    return {
      kind: 'block',
      title,
      parent,
      mode,
      children: [],
      hooks: { beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] }
    }
  }

  startFile(file, rel) {
    const root = this.block('', undefined, 'run')
    root.file = file
    root.rel = rel
    this.files.push(root)
    this.stack = [root]
  }

  get current() {
    return this.stack[this.stack.length - 1]
  }

  describe(title, body, { mode }) {
    const b = this.block(title, this.current, mode)
    this.current.children.push(b)
    this.stack.push(b)
    try {
      body()
    } finally {
      this.stack.pop()
    }
  }

  test(title, body, { mode, timeout }) {
    const parent = this.current
    const names = []
    for (let b = parent; b; b = b.parent) if (b.title) names.unshift(b.title)
    const fullName = [...names, title].join(' ')
    const file = this.stack[0]
    parent.children.push({
      kind: 'test',
      title,
      body,
      parent,
      mode,
      timeout: timeout ?? this.defaultTimeout,
      fullName,
      file: file.file,
      id: `${file.rel}: ${fullName}`
    })
  }

  hook(kind, body) {
    this.current.hooks[kind].push(body)
  }
}

function skipped(t) {
  for (let n = t; n; n = n.parent) if (n.mode === 'skip') return true
  return !t.body
}

function testsUnder(block) {
  return block.children.flatMap(c => (c.kind === 'test' ? [c] : testsUnder(c)))
}

async function withTimeout(run, ms, what) {
  let timer
  try {
    return await Promise.race([
      Promise.resolve().then(run),
      new Promise((_r, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms)
      })
    ])
  } finally {
    clearTimeout(timer)
  }
}

function message(e) {
  return e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e)
}

export class InProcessRunner {
  static inject = tokens(commonTokens.logger, commonTokens.options)

  constructor(log, options) {
    this.log = log
    this.configFile = options.inProcessRunner?.jestConfig ?? 'jest.mutate.config.js'
    this.env = 0
    this.ns = globalThis[INSTRUMENTER_CONSTANTS.NAMESPACE] ??= {}
  }

  capabilities() {
    return { reloadEnvironment: true }
  }

  async init() {
    const root = process.cwd()
    const here = new URL('.', import.meta.url)
    const globalsUrl = new URL('jest-globals.mjs', here).href
    register(new URL('ts-hooks.mjs', here).href, { data: { root, globalsUrl } })
    const globals = await import(globalsUrl)
    globals.installGlobals()
    const config = (await import(pathToFileURL(path.resolve(root, this.configFile)).href)).default
    this.testFiles = config.testMatch
      .flatMap(p => globSync(p.replace('<rootDir>/', ''), { cwd: root }))
      .sort()
      .map(p => path.resolve(root, p))
    process.on('unhandledRejection', e => this.log.debug(`unhandled rejection in a test: ${message(e)}`))
    globalThis[STATE] = {}
    await this.load()
  }

  /** Imports the test files (and so the project's modules) as a fresh environment. */
  async load() {
    const collector = new Collector()
    globalThis[STATE].collector = collector
    const env = this.env++
    this.loadError = undefined
    try {
      for (const file of this.testFiles) {
        collector.startFile(file, path.relative(process.cwd(), file))
        await import(`${pathToFileURL(file).href}?mutation-env=${env}`)
      }
    } catch (e) {
      this.loadError = `loading the tests failed: ${message(e)}`
    } finally {
      globalThis[STATE].collector = undefined
    }
    this.files = collector.files
  }

  async dryRun(options) {
    const coverage = options.coverageAnalysis !== 'off'
    if (this.loadError) return { status: DryRunStatus.Error, errorMessage: this.loadError }
    const tests = await this.run({ coverage: options.coverageAnalysis === 'perTest', bail: false })
    return {
      status: DryRunStatus.Complete,
      tests,
      ...(coverage ? { mutantCoverage: this.ns.mutantCoverage ?? { static: {}, perTest: {} } } : {})
    }
  }

  async mutantRun(options) {
    const id = options.activeMutant.id
    this.ns.currentTestId = undefined
    if (options.reloadEnvironment) {
      if (options.mutantActivation === 'static') this.ns.activeMutant = id
      else delete this.ns.activeMutant
      await this.load()
    }
    this.ns.activeMutant = id
    this.ns.hitLimit = options.hitLimit
    this.ns.hitCount = options.hitLimit ? 0 : undefined
    try {
      if (this.loadError)
        return toMutantRunResult(
          { status: DryRunStatus.Error, errorMessage: this.loadError },
          options.disableBail
        )
      const filter = options.testFilter ? new Set(options.testFilter) : undefined
      const tests = await this.run({ filter, coverage: false, bail: !options.disableBail })
      const timeout = determineHitLimitReached(this.ns.hitCount, this.ns.hitLimit)
      return toMutantRunResult(timeout ?? { status: DryRunStatus.Complete, tests }, options.disableBail)
    } finally {
      delete this.ns.activeMutant
      this.ns.hitLimit = undefined
      this.ns.hitCount = undefined
    }
  }

  /** Runs the selected tests (all when no filter) with their hooks, in file order. */
  async run({ filter, coverage, bail }) {
    const results = []
    const only = this.files.some(f => testsUnder(f).some(t => t.mode === 'only'))
    const selected = t => !skipped(t) && (!filter || filter.has(t.id)) && (!only || t.mode === 'only')
    let stop = false
    const runBlock = async block => {
      const tests = testsUnder(block).filter(selected)
      if (!tests.length) return
      let failedHook
      for (const h of block.hooks.beforeAll)
        try {
          await withTimeout(h, DEFAULT_TIMEOUT_MS * 3, 'beforeAll')
        } catch (e) {
          failedHook = message(e)
          break
        }
      for (const child of block.children) {
        if (stop) break
        if (child.kind === 'block') {
          if (!failedHook) await runBlock(child)
          else for (const t of testsUnder(child).filter(selected)) results.push(this.failed(t, failedHook, 0))
          continue
        }
        if (!selected(child)) continue
        const r = failedHook ? this.failed(child, failedHook, 0) : await this.runTest(child, coverage)
        results.push(r)
        if (bail && r.status === TestStatus.Failed) stop = true
      }
      for (const h of block.hooks.afterAll)
        try {
          await withTimeout(h, DEFAULT_TIMEOUT_MS * 3, 'afterAll')
        } catch (e) {
          this.log.debug(`afterAll failed: ${message(e)}`)
        }
    }
    for (const file of this.files) {
      if (stop) break
      await runBlock(file)
    }
    return results
  }

  failed(t, failureMessage, ms) {
    return {
      id: t.id,
      name: t.fullName,
      fileName: t.file,
      timeSpentMs: ms,
      status: TestStatus.Failed,
      failureMessage
    }
  }

  async runTest(t, coverage) {
    const chain = []
    for (let b = t.parent; b; b = b.parent) chain.unshift(b)
    const started = performance.now()
    if (coverage) this.ns.currentTestId = t.id
    let error
    try {
      for (const b of chain) for (const h of b.hooks.beforeEach) await withTimeout(h, t.timeout, 'beforeEach')
      await withTimeout(t.body, t.timeout, t.fullName)
    } catch (e) {
      error = e
    } finally {
      for (const b of [...chain].reverse())
        for (const h of b.hooks.afterEach)
          try {
            await withTimeout(h, t.timeout, 'afterEach')
          } catch (e) {
            error ??= e
          }
      this.ns.currentTestId = undefined
    }
    const ms = performance.now() - started
    if (error) return this.failed(t, message(error), ms)
    return { id: t.id, name: t.fullName, fileName: t.file, timeSpentMs: ms, status: TestStatus.Success }
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'in-process', InProcessRunner)]

export const strykerValidationSchema = {
  $schema: 'http://json-schema.org/draft-07/schema',
  type: 'object',
  properties: {
    inProcessRunner: {
      description: 'The in-process test runner: the Jest config whose testMatch lists the test files.',
      type: 'object',
      properties: { jestConfig: { type: 'string' } },
      additionalProperties: false
    }
  }
}
