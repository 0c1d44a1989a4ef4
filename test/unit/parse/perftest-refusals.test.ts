// perftest's refusals of its command line, as perftest prints them (test/fixtures/perftest-refusals,
// composed from linux-rdma/perftest's source strings, see SOURCES.md there): each parses as an error
// naming the option refused — 'cuda' when the build cannot use --use_cuda (the benchmark then
// repeats from host memory), 'usage' for every other refusal — and `perftest parse` exits 1 with a
// message that names the option. The inline notice every CUDA run prints is no refusal.
import { describe, expect, it } from '@jest/globals'
import { parsePerftestOutput, perftestCliResult } from '../../../src/parse/perftest.js'
import { expectedFixtures } from '../../support/expected-fixtures.js'

const toolOf = (file: string) => /^\d+-(ib_\w+?_(?:bw|lat))-/.exec(file)![1]

describe('perftest refusals (expected.json)', () => {
  const cases = expectedFixtures<{ kind: string; flag: string; message: string }>('perftest-refusals')

  it.each(cases)('$file', ({ file, text, want }) => {
    const r = parsePerftestOutput(text, { tool: toolOf(file) })
    expect(r.error).toEqual({ kind: want.kind, flag: want.flag, message: want.message })
    expect(r.rows).toEqual([])
    expect(perftestCliResult(text, { tool: toolOf(file) })).toMatchObject({
      exitCode: 1,
      message: `perftest reported a failure: refused ${want.flag}: ${want.message}`
    })
    // without the hint too: the same refusal, and perftest output, never "not perftest output"
    expect(parsePerftestOutput(text)).toMatchObject({ error: r.error, rows: [] })
    expect(perftestCliResult(text).exitCode).toBe(1)
  })

  it('the line naming the option wins over the generic ones, in either order', () => {
    const lines = [' Parser function exited with Error', ' Duplicated argument: -n ']
    for (const text of [lines.join('\n'), [...lines].reverse().join('\n')])
      expect(parsePerftestOutput(text).error).toEqual({
        kind: 'usage',
        flag: '-n',
        message: 'Duplicated argument: -n'
      })
  })

  it('getopt’s other complaints name their option; an unknown check name is no refusal', () => {
    const flagOf = (line: string) => parsePerftestOutput(`${line}\n`).error?.flag
    expect(flagOf("ib_write_bw: invalid option -- 'Y'")).toBe('-Y')
    expect(flagOf("ib_write_bw: option '--size' requires an argument")).toBe('--size')
    expect(flagOf("ib_write_bw: option '--report_gbits' doesn't allow an argument")).toBe('--report_gbits')
    expect(flagOf("ib_write_bw: unrecognized option '--use_cuda_dmabuf'")).toBe('--use_cuda_dmabuf')
    expect(parsePerftestOutput("ib_write_bw: unrecognized option '--bogus=1'\n").error).toMatchObject({
      kind: 'usage',
      flag: '--bogus'
    })
    expect(flagOf(' Message Size should be between 1 and 2147483647')).toBe('-s')
    expect(flagOf(' Gid index should be between 0 and 64')).toBe('-x')
    expect(flagOf(' Duration period must be positive')).toBe('-D')
    expect(flagOf(' Frobs should be between 1 and 2')).toBeUndefined()
  })

  it('the inline notice of every CUDA run, in both spellings, is no refusal', () => {
    for (const spelling of ['supports', 'support']) {
      const r = parsePerftestOutput(
        `Perftest doesn't ${spelling} CUDA tests with inline messages: inline size set to 0\n`
      )
      expect(r.error?.flag).toBeUndefined()
    }
  })
})
