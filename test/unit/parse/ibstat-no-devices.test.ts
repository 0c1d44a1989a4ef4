// The port-state tools' own reports that a node has no (such) RDMA device
// (test/fixtures/ibstat-no-devices, from rdma-core's infiniband-diags and libibverbs sources, see
// SOURCES.md there): each parses as a 'no-devices' error carrying the tool's line, and `ibstat parse`
// exits 1 with it — never 2 ("not ibstat output").
import { describe, expect, it } from '@jest/globals'
import { ibstatCliResult, parseIbstat } from '../../../src/parse/ibstat.js'
import { expectedFixtures } from '../../support/expected-fixtures.js'

describe('no-device reports (expected.json)', () => {
  const cases = expectedFixtures<{ format: string | null; message: string }>('ibstat-no-devices')

  it.each(cases)('$file', ({ text, want }) => {
    expect(parseIbstat(text)).toEqual({
      ports: [],
      devices: [],
      format: want.format,
      error: { kind: 'no-devices', message: want.message }
    })
    expect(ibstatCliResult(text)).toMatchObject({ exitCode: 1, message: `no-devices: ${want.message}` })
  })

  it('other fatal errors of ibstatus are tool errors; text that is no tool output is still exit 2', () => {
    expect(parseIbstat('Fatal error:  something else\n').error).toEqual({
      kind: 'tool-error',
      message: 'Fatal error:  something else'
    })
    expect(ibstatCliResult('Fatal error:  something else\n').exitCode).toBe(1)
    expect(ibstatCliResult('hello\n').exitCode).toBe(2)
  })
})
