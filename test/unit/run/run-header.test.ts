// The run's first log line: apply names the pool it would create (vm-size × node-count); the other
// modes find the pool as it is, so they never show node-count's default as if it were the pool's.
import { runHeader } from '../../../src/main.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

const header = (inputs: Record<string, string>): string =>
  runHeader(readSettings(reader({ ...VALID_APPLY, ...inputs }), {}).settings)

describe('the run header', () => {
  it('apply shows the pool it would create', () => {
    expect(header({ 'node-count': '4' })).toContain('× 4')
  })

  it('verify and drift show no count of their own (the live one is logged once read)', () => {
    for (const mode of ['verify', 'drift']) {
      const line = header({ mode })
      expect(line).toContain('node pool')
      expect(line).not.toMatch(/×/)
    }
  })
})
