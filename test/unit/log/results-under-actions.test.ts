// The CLI's results under GitHub Actions (GITHUB_ACTIONS=true) go to stdout, which the runner
// reads for workflow commands: a job summary or report quoting hostile cluster text must come out
// so the runner carries none of it out — text results wrapped in stop-commands where a line could
// be a command (lines split across writes too), JSON results still one JSON document — while the
// text stays readable, whole.
import { afterEach, describe, expect, it } from '@jest/globals'
import { resultGuard, startSession } from '../../../src/log/terminal-session.js'
import { runnerCommands } from '../../support/runner-commands.js'

const HOSTILE = [
  '| node-pool | ❌ failure | quota exceeded',
  '::warning title=INJECTED::from the cluster',
  '   ::add-mask::aks-rdmapool',
  'done ##[error]LEGACY-INJECTED',
  '::set-env name=NODE_OPTIONS::--require /tmp/x.js'
].join('\n')

const injected = (stdout: string) =>
  runnerCommands(stdout).filter(c => c.command !== 'stop-commands' && !/^[0-9a-f]{32}$/.test(c.command))

const originalWrite = process.stdout.write
afterEach(() => {
  process.stdout.write = originalWrite
})

/** What a session under Actions writes to stdout for `results`, written in these pieces. */
function underActions(results: string[], jsonResults = false): string {
  let out = ''
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out += String(chunk)
    return true
  }) as typeof process.stdout.write
  const session = startSession({ underActions: true, jsonResults })
  for (const r of results) session.result(r)
  session.close()
  process.stdout.write = originalWrite
  return out
}

describe('results under Actions', () => {
  it('a job summary quoting hostile text carries out no command, and reads the same', () => {
    const summary = `===== job summary =====\n${HOSTILE}\n===== outputs =====\nresult=failure\n`
    // The hostile text alone would be carried out.
    expect(injected(summary).map(c => c.command)).toEqual(['warning', 'add-mask', 'error', 'set-env'])
    const out = underActions([summary])
    expect(injected(out)).toEqual([])
    expect(out).toContain(HOSTILE)
    expect(out).toContain('result=failure\n')
  })

  it('a command line split across two writes is caught too', () => {
    const out = underActions(['note\n:', ':warning title=SPLIT::x\n', 'tail without newline'])
    expect(injected(out)).toEqual([])
    expect(out).toContain('::warning title=SPLIT::x')
    expect(out.endsWith('tail without newline')).toBe(true)
  })

  it('plain results pass unchanged', () => {
    expect(underActions(['result: success\n', 'outputs:\n  rdma-nodes=2\n'])).toBe(
      'result: success\noutputs:\n  rdma-nodes=2\n'
    )
  })

  it('a JSON result stays one JSON document with its text intact, and commands none', () => {
    const doc = { result: 'failure', detail: HOSTILE }
    const out = underActions([JSON.stringify(doc, null, 2) + '\n'], true)
    expect(JSON.parse(out)).toEqual(doc)
    expect(injected(out)).toEqual([])
  })

  it('resultGuard on its own: line by line, the rest at end()', () => {
    const written: string[] = []
    const g = resultGuard(t => written.push(t))
    g.write('a\nb')
    expect(written).toEqual(['a\n'])
    g.write('::debug::x\n')
    g.end()
    expect(injected(written.join(''))).toEqual([])
  })
})
