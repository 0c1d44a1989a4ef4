// The CLI's help pages (cli/help.ts) fit an 80-column terminal: every line of the main page and of
// each command's page, inputs and their descriptions included (docs/running-locally.md).
import { describe, expect, it } from '@jest/globals'
import { COMMANDS, inputFlags } from '../../../cli/flags.js'
import { commandHelp, mainHelp } from '../../../cli/help.js'

const MAX = 80

/** The lines of a page wider than the limit, with their page and number. */
function wide(page: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((l, i) => ([...l].length > MAX ? [`${page}:${i + 1} (${[...l].length}): ${l}`] : []))
}

describe('help pages', () => {
  it('the main page has no line wider than 80 columns, and still lists every command', () => {
    const text = mainHelp()
    expect(wide('main', text)).toEqual([])
    for (const c of COMMANDS) expect(text).toMatch(new RegExp(`^  ${c.name}( |$)`, 'm'))
  })

  it.each(COMMANDS.map(c => [c.name, c] as const))(
    '%s --help has no line wider than 80 columns',
    (name, spec) => {
      const text = commandHelp(spec)
      expect(text).toMatch(new RegExp(`^Usage: node dist/cli\\.js ${name}\\b`))
      expect(wide(name, text)).toEqual([])
    }
  )

  it('every option and input still starts its own line, indented, after the wrapping', () => {
    for (const spec of COMMANDS) {
      const lines = commandHelp(spec).split('\n')
      const names = [...spec.options.map(o => o.name), ...inputFlags(spec).map(i => i.name)]
      for (const name of names)
        expect({
          spec: spec.name,
          name,
          line: lines.some(l => new RegExp(`^  (-\\w, )?--${name}( |,|$)`).test(l))
        }).toEqual({
          spec: spec.name,
          name,
          line: true
        })
    }
  })

  it('every word of a description survives the wrapping', () => {
    for (const spec of COMMANDS) {
      const words = (s: string): string[] => s.split(/\s+/).filter(Boolean)
      const page = words(commandHelp(spec)).join(' ')
      for (const o of spec.options) expect(page).toContain(words(o.description).join(' '))
      for (const i of inputFlags(spec)) expect(page).toContain(words(i.description).join(' '))
    }
  })
})
