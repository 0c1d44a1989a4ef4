// One CLI command's output, with the process's own stdout and stderr replaced by recorders for the
// test: under Actions the log text stays as it is (moved to stderr only when results are JSON, so
// stdout holds the JSON alone); in a terminal, everything the process writes is rendered through
// the workflow-command renderer onto stderr (no `::` line), results go to stdout redacted, and
// closing restores the streams and the previous log backend.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { log, setLogBackend, silentLog } from '../../../src/log/index.js'
import { startSession } from '../../../src/log/terminal-session.js'
import { renderScreen } from '../../support/vt100.js'

const realOut = process.stdout.write
const realErr = process.stderr.write
let out: string
let err: string
let recordOut: typeof process.stdout.write
let recordErr: typeof process.stderr.write

beforeEach(() => {
  out = ''
  err = ''
  recordOut = ((chunk: string | Uint8Array) => {
    out += String(chunk)
    return true
  }) as typeof process.stdout.write
  recordErr = ((chunk: string | Uint8Array) => {
    err += String(chunk)
    return true
  }) as typeof process.stderr.write
  process.stdout.write = recordOut
  process.stderr.write = recordErr
})
afterEach(() => {
  process.stdout.write = realOut
  process.stderr.write = realErr
  delete process.env.GITHUB_ACTIONS
})

describe('a session under Actions', () => {
  it('keeps log text on stdout as it is, and child output with it', () => {
    const s = startSession({ underActions: true })
    expect(s.terminal).toBeUndefined()
    s.info('::group::step')
    s.childOutput().write('::warning::from the bundle\n')
    process.stdout.write('direct\n')
    s.result('result: success\n')
    s.close()
    expect(out).toBe('::group::step\n::warning::from the bundle\ndirect\nresult: success\n')
    expect(err).toBe('')
    expect(process.stdout.write).toBe(recordOut)
  })

  it('with JSON results moves all log text to stderr, so stdout holds the JSON alone', () => {
    const s = startSession({ underActions: true, jsonResults: true })
    s.info('a line')
    s.childOutput().write('::debug::child\n')
    process.stdout.write('written by a library\n')
    s.result('{"a":"##[error]x"}')
    expect(out).toBe('')
    s.close()
    expect(err).toBe('a line\n::debug::child\nwritten by a library\n')
    expect(out).toBe('{"a":"#\\u0023[error]x"}')
    expect(JSON.parse(out)).toEqual({ a: '##[error]x' })
    // Closed: stdout is the process's own again.
    expect(process.stdout.write).toBe(recordOut)
    process.stdout.write('after\n')
    expect(out.endsWith('after\n')).toBe(true)
  })

  it('is the default when GITHUB_ACTIONS is true', () => {
    process.env.GITHUB_ACTIONS = 'true'
    const s = startSession()
    expect(s.terminal).toBeUndefined()
    s.close()
  })
})

describe('a session in a terminal', () => {
  it('renders what the process writes onto stderr without any workflow command, and redacts results', async () => {
    const previous = setLogBackend(silentLog)
    try {
      const s = startSession({ underActions: false })
      expect(s.terminal).toBeDefined()
      log.secret('s3cr3t-value')
      process.stdout.write('::warning title=Quota::low on s3cr3t-value\n')
      process.stderr.write(Buffer.from('::error::broken\n'), 'utf8')
      let called = false
      process.stdout.write('::notice::partial', () => (called = true))
      s.info('plain line')
      const child = s.childOutput()
      child.write('::group::child step\nin the group\n')
      child.write('::endgroup::\n')
      child.end()
      s.result('token s3cr3t-value\n')
      s.close()
      s.close()
      expect(out).toBe('token ***\n')
      expect(err).not.toMatch(/^::/m)
      expect(err).not.toContain('s3cr3t-value')
      expect(err).toContain('warning: Quota: low on ***\n')
      expect(err).toContain('error: broken\n')
      expect(err).toContain('notice: partial\n')
      expect(err).toContain('plain line\n')
      expect(err).toContain('==> child step\n')
      expect(err).toContain('in the group\n')
      // Closed: the streams and the log backend are the process's own again.
      expect(process.stdout.write).toBe(recordOut)
      expect(process.stderr.write).toBe(recordErr)
      expect(setLogBackend(silentLog)).toBe(silentLog)
      // A write's callback is called, as a stream's is.
      await new Promise(resolve => process.nextTick(resolve))
      expect(called).toBe(true)
    } finally {
      setLogBackend(previous)
    }
  })

  it('leaves no exit listener behind once closed', () => {
    const before = process.listenerCount('exit')
    const s = startSession({ underActions: false })
    expect(process.listenerCount('exit')).toBe(before + 1)
    s.close()
    expect(process.listenerCount('exit')).toBe(before)
  })

  it('on a TTY lifts the live lines off before a result, so closing erases only its own lines', () => {
    // stdout and stderr are one screen, as in a person's terminal.
    let screen = ''
    process.stdout.write = ((chunk: string | Uint8Array) => {
      screen += String(chunk)
      return true
    }) as typeof process.stdout.write
    process.stderr.write = ((chunk: string | Uint8Array) => {
      screen += String(chunk)
      return true
    }) as typeof process.stderr.write
    const tty = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY')
    Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true })
    const previous = setLogBackend(silentLog)
    try {
      const s = startSession({ underActions: false })
      log.startGroup('gpu-operator: NVIDIA GPU Operator')
      log.endGroup()
      // Keys of background waits: live while the result is printed.
      log.progress('gpu-operator', 'gpu-operator: GPU driver ready on 1/2 nodes')
      log.progress('ib-node-config', 'ib-node-config: ib-setup completed on 1/2 nodes')
      s.result('result: success\nreport: ./report.json\n')
      s.result('export KUBECONFIG=/tmp/kubeconfig\n')
      log.progress('gpu-operator', 'gpu-operator: GPU driver ready on 2/2 nodes')
      s.close()
      const shown = renderScreen(screen)
      expect(shown.slice(-3)).toEqual([
        'result: success',
        'report: ./report.json',
        'export KUBECONFIG=/tmp/kubeconfig'
      ])
      expect(shown.filter(l => l.includes('…'))).toEqual([])
    } finally {
      setLogBackend(previous)
      if (tty) Object.defineProperty(process.stderr, 'isTTY', tty)
      else delete (process.stderr as { isTTY?: boolean }).isTTY
    }
  })
})
