// Inputs the way the runner passes them (INPUT_<NAME>, spaces as underscores, upper case), the
// CLI's values put into the same variables, the secret inputs' values found for masking, and step
// outputs written to the GITHUB_OUTPUT file as @actions/core writes them.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseFileCommands } from '../../../src/run/file-commands.js'
import { actionInputReader, exportInputs, inputEnvName, secretInputValues } from '../../../src/run/inputs.js'
import { setOutput } from '../../../src/run/outputs.js'

const savedEnv = { ...process.env }
beforeEach(() => {
  process.env = { ...savedEnv }
  for (const k of Object.keys(process.env))
    if (k.startsWith('INPUT_') || k === 'GITHUB_OUTPUT') delete process.env[k]
})
afterEach(() => {
  process.env = { ...savedEnv }
})

describe('inputs', () => {
  it('names the variable as the runner does', () => {
    expect(inputEnvName('client-secret')).toBe('INPUT_CLIENT-SECRET')
    expect(inputEnvName('a b c')).toBe('INPUT_A_B_C')
    expect(inputEnvName('Mode')).toBe('INPUT_MODE')
  })

  it('exports values into the given environment, or the process one, for the reader to find', () => {
    const env: NodeJS.ProcessEnv = { KEEP: '1' }
    exportInputs({ mode: 'verify', 'node pool': 'rdma' }, env)
    expect(env).toEqual({ KEEP: '1', INPUT_MODE: 'verify', INPUT_NODE_POOL: 'rdma' })
    expect(process.env.INPUT_MODE).toBeUndefined()
    exportInputs({ mode: ' drift ', 'kube-context': '' })
    expect(process.env.INPUT_MODE).toBe(' drift ')
    // The reader trims, as @actions/core does, and takes an empty value as none.
    expect(actionInputReader('mode')).toBe('drift')
    expect(actionInputReader('kube-context')).toBeUndefined()
    expect(actionInputReader('cluster-name')).toBeUndefined()
  })

  it('finds the secret inputs set (trimmed), and only those', () => {
    expect(secretInputValues({})).toEqual([])
    expect(
      secretInputValues({
        'INPUT_CLIENT-SECRET': '  s3cret \n',
        INPUT_CREDS: '{"clientSecret":"x"}',
        'INPUT_CLIENT-ID': 'not-a-secret',
        INPUT_MODE: 'apply'
      })
    ).toEqual(['s3cret', '{"clientSecret":"x"}'])
    expect(secretInputValues({ 'INPUT_CLIENT-SECRET': '   ', INPUT_CREDS: '' })).toEqual([])
    process.env.INPUT_CREDS = 'from-process'
    expect(secretInputValues()).toEqual(['from-process'])
  })
})

describe('setOutput', () => {
  it('writes each value as text to the GITHUB_OUTPUT file', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'outputs-')), 'outputs')
    writeFileSync(file, '')
    process.env.GITHUB_OUTPUT = file
    setOutput('result', 'success')
    setOutput('rdma-nodes', 4)
    setOutput('drifted', false)
    expect(parseFileCommands(readFileSync(file, 'utf8'))).toEqual({
      result: 'success',
      'rdma-nodes': '4',
      drifted: 'false'
    })
  })
})
