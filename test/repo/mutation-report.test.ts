// script/mutation/report-by-area.mjs, the mutation run's per-area table, on small hand-written
// reports: several records read as one run (a mutant takes the best status any gave it), a record
// of a file that has since changed left out, the first killing test's kind, documentation-only kills
// apart from the behaviour score, and `--min` wherever it stands among the reports.
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const SCRIPT = path.resolve('script/mutation/report-by-area.mjs')
const SOURCE = 'export const a = 1 + 2\n'

interface MutantSketch {
  line: number
  status: string
  killedBy?: string[]
}

function report(mutants: MutantSketch[], opts: { source?: string; testFile?: string } = {}) {
  const testFile = opts.testFile ?? 'test/unit/a/x.test.ts'
  return {
    schemaVersion: '1.0',
    thresholds: { high: 90, low: 80 },
    files: {
      'src/a/x.ts': {
        language: 'typescript',
        source: opts.source ?? SOURCE,
        mutants: mutants.map((m, i) => ({
          id: String(i),
          mutatorName: 'ArithmeticOperator',
          replacement: '1 - 2',
          status: m.status,
          killedBy: m.killedBy,
          location: { start: { line: m.line, column: 18 }, end: { line: m.line, column: 23 } }
        }))
      }
    },
    testFiles: { [testFile]: { tests: [{ id: 't1', name: `${testFile}: it` }] } }
  }
}

/** Runs the script in a folder holding src/a/x.ts and the given reports; its output and exit code. */
function table(reports: Record<string, unknown>, args: string[]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mutation-report-'))
  try {
    mkdirSync(path.join(dir, 'src/a'), { recursive: true })
    writeFileSync(path.join(dir, 'src/a/x.ts'), SOURCE)
    for (const [name, r] of Object.entries(reports)) writeFileSync(path.join(dir, name), JSON.stringify(r))
    const run = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: dir, encoding: 'utf8' })
    return { out: run.stdout, err: run.stderr, code: run.status }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The area row's columns after its name: files, mutants, killed, timeout, survived, no cov., errors. */
const row = (out: string) =>
  out
    .split('\n')
    .find(l => l.startsWith('src/a/'))!
    .trim()
    .split(/\s{2,}/)

describe('the per-area mutation table', () => {
  it('reads several records as one run: each mutant takes the best status any of them gave it', () => {
    const unit = report([
      { line: 1, status: 'Survived' },
      { line: 2, status: 'NoCoverage' },
      { line: 3, status: 'NoCoverage' },
      { line: 4, status: 'Killed', killedBy: ['t1'] }
    ])
    const flow = report(
      [
        { line: 1, status: 'Killed', killedBy: ['t1'] },
        { line: 2, status: 'Survived' },
        { line: 4, status: 'Survived' }
      ],
      { testFile: 'test/flow/a/y.test.ts' }
    )
    const { out, code } = table({ 'unit.json': unit, 'flow.json': flow }, ['unit.json', 'flow.json'])
    expect(code).toBe(0)
    // 4 mutants: killed 2 (one by a unit test, one by a flow), survived 1, no coverage 1.
    expect(row(out)).toEqual(['src/a/', '1', '4', '2', '0', '1', '1', '0', '50.0 %', '50.0 %', '1 / 1 / 0'])
    expect(out).toContain('Read as one run: a mutant counts as killed when any of the 2 reports killed it')
  })

  it('leaves out a record of a file that has changed since, and says so', () => {
    const stale = report([{ line: 1, status: 'Killed', killedBy: ['t1'] }], {
      source: 'export const a = 0\n'
    })
    const fresh = report([{ line: 1, status: 'Survived' }])
    const { out } = table({ 'stale.json': stale, 'fresh.json': fresh }, ['stale.json', 'fresh.json'])
    expect(row(out).slice(0, 8)).toEqual(['src/a/', '1', '1', '0', '0', '1', '0', '0'])
    expect(out).toContain('Left out: 1 file records measured against another version of the file')
  })

  it('counts a kill only a documentation test made apart from the behaviour score', () => {
    const r = report(
      [
        { line: 1, status: 'Killed', killedBy: ['t1'] },
        { line: 2, status: 'Survived' }
      ],
      { testFile: 'test/repo/action-interface.test.ts' }
    )
    const { out } = table({ 'r.json': r }, ['r.json'])
    expect(row(out).slice(8)).toEqual(['50.0 %', '0.0 %', '0 / 0 / 1'])
    expect(out).toContain('Documentation-only kills: 1 mutants')
  })

  it('takes --min before or after the reports, and exits 1 below it', () => {
    const r = report([
      { line: 1, status: 'Killed', killedBy: ['t1'] },
      { line: 2, status: 'Survived' }
    ])
    expect(table({ 'r.json': r }, ['--min', '50', 'r.json']).code).toBe(0)
    const below = table({ 'r.json': r }, ['r.json', '--min', '80'])
    expect(below.code).toBe(1)
    expect(below.err).toContain('The behaviour score is below 80 %.')
    expect(below.out).toContain('Mutation score by area (r.json)')
  })

  it('names a report that is not there', () => {
    const { err, code } = table({}, ['missing.json'])
    expect(code).toBe(2)
    expect(err).toContain('missing.json: no mutation report')
  })
})
