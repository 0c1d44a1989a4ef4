// The action's interface as the runner and its users see it, against the definitions every input
// is read through: action.yml declares exactly the defined inputs and outputs (names, descriptions,
// defaults, none required: the settings layer says what is missing), and the README's input and
// output tables show the same names, defaults, descriptions and allowed values. (That both files
// are what script/docs.mjs generates is test/repo/shape.test.ts's.)
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { INPUTS, OUTPUTS } from '../../src/settings/input-definitions.js'

const action = parse(readFileSync('action.yml', 'utf8'))

/** The rows of the README table between `<!-- <name>:start -->` and `<!-- <name>:end -->`, as cells. */
function readmeTable(name: string): string[][] {
  const text = readFileSync('README.md', 'utf8')
  const body = text.slice(text.indexOf(`<!-- ${name}:start -->`), text.indexOf(`<!-- ${name}:end -->`))
  return body
    .split('\n')
    .filter(l => l.startsWith('| `'))
    .map(l =>
      l
        .slice(2, -2)
        .split(/ (?<!\\)\| /)
        .map(c => c.replace(/\\\|/g, '|'))
    )
}

describe('action.yml', () => {
  it('declares exactly the defined inputs, with their descriptions and defaults, none required', () => {
    expect(Object.keys(action.inputs)).toEqual(INPUTS.map(i => i.name))
    for (const i of INPUTS)
      expect({ name: i.name, ...action.inputs[i.name] }).toEqual({
        name: i.name,
        description: i.description,
        required: false,
        ...(i.default !== undefined ? { default: i.default } : {})
      })
  })

  it('declares exactly the defined outputs, with their descriptions', () => {
    expect(action.outputs).toEqual(
      Object.fromEntries(OUTPUTS.map(o => [o.name, { description: o.description }]))
    )
  })
})

describe('the README tables', () => {
  it('list every input with its default, description and allowed values', () => {
    expect(readmeTable('inputs')).toEqual(
      INPUTS.map(i => [
        `\`${i.name}\``,
        i.default !== undefined ? `\`${i.default}\`` : '',
        `${i.description}${i.values ? ` (${i.values.map(v => `\`${v}\``).join(' | ')})` : ''}`
      ])
    )
  })

  it('list every output with its description', () => {
    expect(readmeTable('outputs')).toEqual(OUTPUTS.map(o => [`\`${o.name}\``, o.description]))
  })
})
