// The repository's shape: action.yml matches the input definitions (and the README tables), runs
// on node24 with a post step, and the action bundles carry no simulator or test code.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { INPUTS, OUTPUTS } from '../src/settings/input-definitions.js'

describe('repository', () => {
  const action = parse(readFileSync('action.yml', 'utf8'))

  it('action.yml runs the bundles on node24 with a post step', () => {
    expect(action.runs).toMatchObject({ using: 'node24', main: 'dist/index.js', post: 'dist/post.js' })
  })

  it('action.yml declares exactly the defined inputs and outputs, with defaults', () => {
    expect(Object.keys(action.inputs)).toEqual(INPUTS.map(i => i.name))
    for (const i of INPUTS) {
      expect(action.inputs[i.name].description).toBe(i.description)
      expect(action.inputs[i.name].default).toBe(i.default)
    }
    expect(Object.keys(action.outputs)).toEqual(OUTPUTS.map(o => o.name))
  })

  it('action.yml and the README tables are generated from the definitions', () => {
    expect(() =>
      execFileSync(process.execPath, ['script/docs.mjs', '--check'], { stdio: 'pipe' })
    ).not.toThrow()
  })

  it('the action bundles do not contain the simulator or tests', () => {
    for (const bundle of ['dist/index.js', 'dist/post.js']) {
      expect(existsSync(bundle)).toBe(true)
      const text = readFileSync(bundle, 'utf8')
      for (const marker of [
        '// sim/',
        'simulator CA',
        'helmStandin',
        'startAzureSim',
        'startKubeSim',
        '@jest/globals',
        'test/support'
      ])
        expect({ bundle, marker, found: text.includes(marker) }).toEqual({ bundle, marker, found: false })
    }
  })
})
