// A boolean input whose flag alone turns it on: `--all-pools` is `--all-pools true`; a value given
// is kept; other flags are read as before.
import { describe, expect, it } from '@jest/globals'
import { COMMANDS, parseCommand } from '../../../cli/flags.js'

const verify = () => COMMANDS.find(c => c.name === 'verify')!

describe('--all-pools', () => {
  it('alone is true, with a value is that value', () => {
    expect(parseCommand(verify(), ['--all-pools']).inputs['all-pools']).toBe('true')
    expect(parseCommand(verify(), ['--all-pools', '--node-pool', 'gpua']).inputs).toEqual({
      'all-pools': 'true',
      'node-pool': 'gpua'
    })
    expect(parseCommand(verify(), ['--all-pools', 'false']).inputs['all-pools']).toBe('false')
    expect(parseCommand(verify(), ['--node-pool', 'gpua', '--all-pools']).inputs['all-pools']).toBe('true')
  })
})
