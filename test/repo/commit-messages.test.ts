// The commit convention of CONTRIBUTING.md as script/check-commits.mjs enforces it: `area: subject`
// of at most 72 characters with a body saying why; merge commits need only the length. Then the
// script itself over a throwaway repository: a commit that breaks the rule fails the run, naming it.
import { describe, expect, it } from '@jest/globals'
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
// @ts-expect-error: a plain ESM script without types
import { messageProblems, MAX_SUBJECT } from '../../script/check-commits.mjs'

const SCRIPT = path.resolve('script/check-commits.mjs')

describe('commit messages', () => {
  it('accepts an area, an imperative subject and a body', () => {
    expect(messageProblems('verify: judge verbs devices per node\n\nThe probe reads them per node.')).toEqual(
      []
    )
    expect(messageProblems('sim, test: model mount propagation\n\nWhy.\n')).toEqual([])
  })

  it('names each way a message breaks the convention', () => {
    expect(messageProblems('Review mends: many things\n\nbody')).toEqual([
      "subject is not 'area: imperative subject' (e.g. 'verify: judge verbs devices per node')"
    ])
    expect(messageProblems(`verify: ${'x'.repeat(MAX_SUBJECT)}\n\nbody`)[0]).toMatch(
      /^subject is 80 characters/
    )
    expect(messageProblems('verify: judge it.\n\nbody')).toEqual(['subject ends with a period'])
    expect(messageProblems('verify: judge it')).toEqual(['no body saying why'])
    expect(messageProblems('verify: judge it\nbody at once')).toEqual([
      'no blank line between subject and body'
    ])
  })

  it('lets a merge commit go without an area or a body, never over the length', () => {
    expect(messageProblems("Merge branch 'x'", { merge: true })).toEqual([])
    expect(messageProblems(`Merge ${'y'.repeat(80)}`, { merge: true })).toHaveLength(1)
  })

  it('fails on a bad commit in the range it is given, and passes a good one', () => {
    const repo = mkdtempSync(path.join(tmpdir(), 'commits-'))
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo })
    git('init', '-q')
    git('commit', '-q', '--allow-empty', '-m', 'repo: start\n\nThe first commit.')
    git('commit', '-q', '--allow-empty', '-m', 'docs: split the readme\n\nIt was too long.')
    const good = spawnSync(process.execPath, [SCRIPT, 'HEAD~1..HEAD'], { cwd: repo, encoding: 'utf8' })
    expect(good.status).toBe(0)
    git('commit', '-q', '--allow-empty', '-m', 'Fixed lots of things in one go')
    const bad = spawnSync(process.execPath, [SCRIPT, 'HEAD~2..HEAD'], { cwd: repo, encoding: 'utf8' })
    expect(bad.status).toBe(1)
    expect(bad.stderr).toMatch(/"Fixed lots of things in one go": subject is not 'area: imperative subject'/)
    expect(bad.stdout).toMatch(/2 commit\(s\) in HEAD~2\.\.HEAD, 1 not following/)
  })
})
