// Jest test environment: Node's, plus per-test capture of what the code under test writes to
// process.stdout / process.stderr (the action's workflow commands and ::add-mask:: lines, helm and
// child-process logs a test forwards). A test's output is printed only when that test fails;
// output outside tests (module load, beforeAll/afterAll) only when a hook or a test of the file
// fails. Only the test's own `process` is wrapped: Jest's reporters keep the real streams. The
// test's process.exitCode is its own too (the action under test sets it; Jest's must not change).
// AKS_RDMA_TEST_OUTPUT=show passes everything through (debugging).
import { TestEnvironment } from 'jest-environment-node'

/** How much of one test's output is kept (the end of it): enough for a failing run's tail. */
const KEEP_CHARS = 200_000

class Capture {
  chunks = []
  size = 0
  dropped = 0

  add(text) {
    this.chunks.push(text)
    this.size += text.length
    while (this.size > KEEP_CHARS && this.chunks.length > 1) {
      const first = this.chunks.shift()
      this.size -= first.length
      this.dropped += first.length
    }
  }

  text() {
    const head = this.dropped ? `[… ${this.dropped} earlier characters left out …]\n` : ''
    return head + this.chunks.join('')
  }

  get empty() {
    return this.chunks.length === 0
  }
}

function fullName(test) {
  const names = []
  for (let block = test; block; block = block.parent)
    if (block.name && block.name !== 'ROOT_DESCRIBE_BLOCK') names.unshift(block.name)
  return names.join(' › ')
}

function toText(chunk, encoding) {
  if (typeof chunk === 'string') return chunk
  return Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8')
}

export default class CapturingEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context)
    this.testPath = context.testPath
    this.outside = new Capture()
    this.current = undefined
    const realStderr = process.stderr
    this.print = text => realStderr.write(text)
    // The code under test sets process.exitCode (core.setFailed, the entry points). On Node 24 the
    // test's copy of `process` shares that accessor with Jest's own process, so a test run in band
    // would make Jest exit 1 with every test passed: give the test a process.exitCode of its own.
    Object.defineProperty(this.global.process, 'exitCode', {
      value: undefined,
      configurable: true,
      enumerable: true,
      writable: true
    })
    if (process.env.AKS_RDMA_TEST_OUTPUT === 'show') return
    for (const name of ['stdout', 'stderr']) {
      const stream = Object.create(process[name])
      stream.write = (chunk, encoding, callback) => {
        ;(this.current ?? this.outside).add(toText(chunk, encoding))
        const done = typeof encoding === 'function' ? encoding : callback
        if (typeof done === 'function') process.nextTick(done)
        return true
      }
      Object.defineProperty(this.global.process, name, {
        value: stream,
        configurable: true,
        enumerable: true,
        writable: true
      })
    }
  }

  show(title, capture) {
    if (capture.empty) return
    const file = this.testPath ? ` (${this.testPath})` : ''
    this.print(`\n──── ${title}${file} ────\n${capture.text()}\n──── end of ${title} ────\n`)
  }

  /** The output outside tests so far, once per failure (then it starts afresh). */
  showOutside() {
    this.show('output outside tests (module load, beforeAll/afterAll)', this.outside)
    this.outside = new Capture()
  }

  handleTestEvent(event, state) {
    switch (event.name) {
      case 'test_start':
        this.current = new Capture()
        break
      case 'test_done': {
        const capture = this.current
        this.current = undefined
        if (event.test.errors.length > 0 && capture) {
          this.showOutside()
          this.show(`output of the failed test "${fullName(event.test)}"`, capture)
        }
        break
      }
      case 'hook_failure':
        if (event.hook.type === 'beforeAll' || event.hook.type === 'afterAll') this.showOutside()
        break
      case 'run_finish':
        if (state.unhandledErrors.length > 0) this.showOutside()
        break
      default:
        break
    }
  }
}
