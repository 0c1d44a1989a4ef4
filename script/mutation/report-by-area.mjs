// Reads mutation run JSON reports (default reports/mutation/mutation.json) and prints, per area of
// src/ (its first folder; the entry points at its top as one), the mutants by status, the score, and
// which kind of test first killed them (unit, flow, repo). Several reports (a run's JSON report or an
// incremental record, e.g. one per area measured with its own flows) are read as one run of all their
// tests: a mutant (its file, mutator, place and replacement) takes the best status any of them gave
// it — a kill by a subset of the suite is a kill by the suite — and a report whose copy of a file
// differs from the file in the working tree is left out for that file (it measured other code). Kills
// that only a documentation test made (test/repo/: action.yml and the README against the input table)
// are counted apart and left out of the behaviour score; the default run does not run test/repo/ nor
// the README checks among the other tests at all, and the report says so. Score as Stryker counts it:
// (killed + timeout) / (killed + timeout + survived + no coverage); errors and ignored mutants are
// outside it. `--min <score>` exits 1 when the behaviour score is below it.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

const args = process.argv.slice(2)
const minAt = args.indexOf('--min')
const min = minAt >= 0 ? Number(args[minAt + 1]) : undefined
const given = args.filter((a, i) => !a.startsWith('--') && !(minAt >= 0 && i === minAt + 1))
const files = given.length ? given : ['reports/mutation/mutation.json']
for (const file of files)
  if (!existsSync(file)) {
    console.error(`${file}: no mutation report (npm run mutate writes it when a run completes)`)
    process.exit(2)
  }

function kindOfIn(report) {
  /** The test ids of the report, by id: their file (tests are `<file>: <name>` in this runner). */
  const testFileOf = new Map()
  for (const [name, tf] of Object.entries(report.testFiles ?? {}))
    for (const t of tf.tests ?? []) testFileOf.set(t.id, name || t.name.split(': ')[0])
  return testId => {
    const f = testFileOf.get(testId) ?? String(testId).split(': ')[0]
    const m = /(?:^|\/)test\/(unit|flow|sim|repo)\//.exec(f.split(path.sep).join('/'))
    return m ? m[1] : 'other'
  }
}

/** Which status wins when reports disagree on a mutant: a kill over a survivor over an error. */
const RANK = {
  Killed: 6,
  Timeout: 5,
  Survived: 4,
  NoCoverage: 3,
  CompileError: 2,
  RuntimeError: 2,
  Ignored: 1
}
const keyOf = m =>
  [
    m.mutatorName,
    m.replacement ?? '',
    m.location.start.line,
    m.location.start.column,
    m.location.end.line,
    m.location.end.column
  ].join(':')

/** file name → { source, mutants: key → { status, firstKill } }, merged over the reports. */
const merged = new Map()
let staleRecords = 0
for (const file of files) {
  const report = JSON.parse(readFileSync(file, 'utf8'))
  const kindOf = kindOfIn(report)
  for (const [name, f] of Object.entries(report.files)) {
    const onDisk = existsSync(name) ? readFileSync(name, 'utf8') : undefined
    const entry = merged.get(name) ?? { source: onDisk ?? f.source, mutants: new Map() }
    merged.set(name, entry)
    if (f.source !== entry.source) {
      staleRecords++
      continue
    }
    for (const m of f.mutants) {
      const seen = entry.mutants.get(keyOf(m))
      if (seen && (RANK[seen.status] ?? 0) >= (RANK[m.status] ?? 0)) continue
      const firstKill = m.status === 'Killed' && m.killedBy?.length ? kindOf(m.killedBy[0]) : undefined
      entry.mutants.set(keyOf(m), { status: m.status, firstKill })
    }
  }
}

function areaOf(fileName) {
  const rel = fileName
    .split(path.sep)
    .join('/')
    .replace(/^.*?(?:^|\/)src\//, '')
  return rel.includes('/') ? `src/${rel.slice(0, rel.indexOf('/'))}/` : 'src/*.ts (entry points)'
}

const empty = () => ({
  files: 0,
  mutants: 0,
  Killed: 0,
  Timeout: 0,
  Survived: 0,
  NoCoverage: 0,
  errors: 0,
  Ignored: 0,
  docOnly: 0,
  firstKill: { unit: 0, flow: 0, sim: 0, repo: 0, other: 0 }
})
const areas = new Map()
const total = empty()
for (const [name, f] of merged) {
  if (!f.mutants.size) continue
  const area = areas.get(areaOf(name)) ?? empty()
  areas.set(areaOf(name), area)
  area.files++
  total.files++
  for (const m of f.mutants.values()) {
    for (const a of [area, total]) {
      a.mutants++
      if (m.status === 'CompileError' || m.status === 'RuntimeError') a.errors++
      else if (a[m.status] !== undefined) a[m.status]++
      if (m.firstKill) {
        a.firstKill[m.firstKill]++
        if (m.firstKill === 'repo') a.docOnly++
      }
    }
  }
}

const pct = (n, d) => (d ? `${((100 * n) / d).toFixed(1)} %` : 'n/a')
const valid = a => a.Killed + a.Timeout + a.Survived + a.NoCoverage
const score = a => pct(a.Killed + a.Timeout, valid(a))
const behaviour = a => pct(a.Killed + a.Timeout - a.docOnly, valid(a))
const behaviourValue = a => (valid(a) ? (100 * (a.Killed + a.Timeout - a.docOnly)) / valid(a) : 100)

const rows = [...areas].sort(([a], [b]) => a.localeCompare(b))
const header = [
  'area',
  'files',
  'mutants',
  'killed',
  'timeout',
  'survived',
  'no cov.',
  'errors',
  'score',
  'behaviour',
  'first killed by unit / flow / repo'
]
const line = (name, a) => [
  name,
  a.files,
  a.mutants,
  a.Killed,
  a.Timeout,
  a.Survived,
  a.NoCoverage,
  a.errors,
  score(a),
  behaviour(a),
  `${a.firstKill.unit} / ${a.firstKill.flow} / ${a.firstKill.repo}`
]
const table = [header, ...rows.map(([n, a]) => line(n, a)), line('total', total)].map(r => r.map(String))
const widths = header.map((_, i) => Math.max(...table.map(r => r[i].length)))
const print = r =>
  console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '))
console.log(`Mutation score by area (${files.join(', ')})`)
if (staleRecords)
  console.log(
    `Left out: ${staleRecords} file records measured against another version of the file than the working tree's.`
  )
print(table[0])
console.log(widths.map(w => '-'.repeat(w)).join('  '))
table.slice(1, -1).forEach(print)
console.log(widths.map(w => '-'.repeat(w)).join('  '))
print(table[table.length - 1])
console.log('')
if (total.firstKill.repo)
  console.log(
    `Documentation-only kills: ${total.docOnly} mutants were first killed by a test/repo/ test (action.yml, ` +
      `README against the input table); the behaviour score counts them as survived.`
  )
else
  console.log(
    'Documentation-only kills: none — test/repo/ (action.yml and the README against the input table) ' +
      'and the README checks among the unit and flow tests (DOCUMENTATION_TESTS in jest.mutate.config.js) ' +
      'are not run against mutants, so every kill above is a behavioural test’s.'
  )
console.log(`Behaviour score, the areas above: ${behaviour(total)}`)
if (process.env.MUTATE_TEST_KINDS && process.env.MUTATE_TEST_KINDS.trim() !== 'unit,flow')
  console.log(
    `Tests run against the mutants: ${process.env.MUTATE_TEST_KINDS} only (MUTATE_TEST_KINDS), so the ` +
      'scores are lower bounds: a mutant no such test kills may be killed by the others.'
  )
if (files.length > 1)
  console.log(
    `Read as one run: a mutant counts as killed when any of the ${files.length} reports killed it. Each ` +
      'ran a selection of the tests, so the scores are lower bounds of what the whole suite kills.'
  )
if (min !== undefined && behaviourValue(total) < min) {
  console.error(`The behaviour score is below ${min} %.`)
  process.exitCode = 1
}
