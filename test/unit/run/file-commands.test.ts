// The runner's file commands as @actions/core writes them to GITHUB_OUTPUT and GITHUB_STATE:
// `name=value` lines and `name<<DELIMITER` heredocs holding any text, read back by a local run.
import { describe, expect, it } from '@jest/globals'
import { parseFileCommands } from '../../../src/run/file-commands.js'

describe('parseFileCommands', () => {
  it('reads name=value lines, keeping every `=` after the first in the value', () => {
    expect(parseFileCommands('result=success\nquery=a=b=c\nempty=\n')).toEqual({
      result: 'success',
      query: 'a=b=c',
      empty: ''
    })
  })
  it('reads heredocs whose value spans lines and may hold `=` and `<<`', () => {
    const text = [
      'summary<<ghadelimiter_1',
      'line one',
      'a=b',
      'x<<y',
      '',
      'ghadelimiter_1',
      'after=1',
      ''
    ].join('\n')
    expect(parseFileCommands(text)).toEqual({ summary: 'line one\na=b\nx<<y\n', after: '1' })
  })
  it('reads an empty heredoc, and one the file ends inside', () => {
    expect(parseFileCommands('a<<EOF\nEOF\nb<<EOF\nunfinished')).toEqual({ a: '', b: 'unfinished' })
  })
  it('skips lines that are neither, and a later value wins', () => {
    expect(parseFileCommands('noise\n\nk=1\nk=2')).toEqual({ k: '2' })
    expect(parseFileCommands('')).toEqual({})
  })
  it('takes a heredoc only from the start of a line, through to its end', () => {
    // `a=b<<EOF` is a value holding `<<`, not a heredoc named b.
    expect(parseFileCommands('a=b<<EOF\nx\nEOF')).toEqual({ a: 'b<<EOF' })
    // A delimiter cut by a line separator is no heredoc: the next line is a value of its own.
    expect(parseFileCommands('k<<D\u2028x\nv=1\nD')).toEqual({ v: '1' })
  })
})
