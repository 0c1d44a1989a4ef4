// The describe/it tree of the test files the mutation run's runner loaded (script/mutation/
// in-process-runner.mjs), and what it needs to walk it: each file's own default timeout (the Jest
// config's testTimeout, or the file's jest.setTimeout), which tests run (skip/only, a filter), the
// earlier tests a selected one depends on, and a test or hook run under its time limit.

/** A test or hook that outlived its time limit (the run reports the mutant as a Timeout). */
export class TestTimeoutError extends Error {
  constructor(what, ms) {
    super(`${what}: timed out after ${ms} ms`)
    this.name = 'TestTimeoutError'
  }
}

// The fake timers a test installs (jest.useFakeTimers) must not stop the runner's own clock.
const realSetTimeout = globalThis.setTimeout
const realClearTimeout = globalThis.clearTimeout

/** Runs `run` under a limit of `ms` real milliseconds; past it throws TestTimeoutError. */
export async function withTimeout(run, ms, what) {
  let timer
  try {
    return await Promise.race([
      Promise.resolve().then(run),
      new Promise((_r, reject) => {
        timer = realSetTimeout(() => reject(new TestTimeoutError(what, ms)), ms)
      })
    ])
  } finally {
    realClearTimeout(timer)
  }
}

/** Collects describe/it/hooks while test files load. */
export class Collector {
  constructor(defaultTimeout) {
    this.files = []
    this.stack = []
    this.configTimeout = defaultTimeout
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
    // Jest's testTimeout, until the file calls jest.setTimeout (which holds for that file only).
    root.timeout = this.configTimeout
    this.files.push(root)
    this.stack = [root]
  }

  get current() {
    return this.stack[this.stack.length - 1]
  }

  /** jest.setTimeout while a file loads: that file's default test and hook timeout. */
  setTimeout(ms) {
    if (this.stack[0]) this.stack[0].timeout = ms
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
    const root = this.stack[0]
    parent.children.push({
      kind: 'test',
      title,
      body,
      parent,
      mode,
      root,
      explicitTimeout: timeout,
      fullName,
      file: root.file,
      id: `${root.rel}: ${fullName}`
    })
  }

  hook(kind, body) {
    this.current.hooks[kind].push(body)
  }
}

/** A test's time limit: its own, else its file's default (read when it runs). */
export function timeoutOf(t) {
  return t.explicitTimeout ?? t.root.timeout
}

export function skipped(t) {
  for (let n = t; n; n = n.parent) if (n.mode === 'skip') return true
  return !t.body
}

export function testsUnder(block) {
  return block.children.flatMap(c => (c.kind === 'test' ? [c] : testsUnder(c)))
}

/** The blocks from the file's root down to the test's own. */
export function chainOf(t) {
  const chain = []
  for (let b = t.parent; b; b = b.parent) chain.unshift(b)
  return chain
}

/** A stable name of a block within its file (for the coverage of its beforeAll/afterAll hooks). */
export function blockId(block) {
  const names = []
  for (let b = block; b; b = b.parent) if (b.title) names.unshift(b.title)
  let root = block
  while (root.parent) root = root.parent
  return `${root.rel}: <hooks of ${names.join(' ') || 'the file'}>`
}

/**
 * The tests to run for `wanted` (ids; every runnable test when undefined): each wanted test, and
 * before it every earlier test under the outermost block whose beforeAll it shares — those tests
 * build on one world the hook made, in order (a re-run that finds the first run's work).
 */
export function withPrerequisites(files, wanted) {
  const only = files.some(f => testsUnder(f).some(t => t.mode === 'only'))
  const runnable = t => !skipped(t) && (!only || t.mode === 'only')
  const out = new Set()
  for (const file of files)
    for (const t of testsUnder(file)) {
      if (!runnable(t) || (wanted && !wanted.has(t.id))) continue
      out.add(t)
      const shared = chainOf(t).find(b => b.hooks.beforeAll.length > 0)
      if (!shared) continue
      for (const earlier of testsUnder(shared)) {
        if (earlier === t) break
        if (runnable(earlier)) out.add(earlier)
      }
    }
  return out
}
