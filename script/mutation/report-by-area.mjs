// Reads a mutation run's JSON report (default reports/mutation/mutation.json; a path as argument
// reads another) and prints, per area of src/ (its first folder; the entry points at its top as
// one), the mutants by status, the score, and which kind of test first killed them (unit, flow,
// repo). Kills that only a documentation test made (test/repo/: action.yml and the README against
// the input table) are counted apart and left out of the behaviour score; the default run does not
// run test/repo/ nor the README checks among the other tests at all, and the report says so. Score as Stryker counts it: (killed + timeout) /
// (killed + timeout + survived + no coverage); errors and ignored mutants are outside it.
// `--min <score>` exits 1 when the behaviour score is below it.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

const args = process.argv.slice(2)
const minAt = args.indexOf('--min')
const min = minAt >= 0 ? Number(args[minAt + 1]) : undefined
const file = args.find((a, i) => !a.startsWith('--') && i !== minAt + 1) ?? 'reports/mutation/mutation.json'
if (!existsSync(file)) {
  console.error(`${file}: no mutation report (npm run mutate writes it when a run completes)`)
  process.exit(2)
}
const report = JSON.parse(readFileSync(file, 'utf8'))

/** The test ids of the report, by id: their file (tests are `<file>: <name>` in this runner). */
const testFileOf = new Map()
for (const [name, tf] of Object.entries(report.testFiles ?? {}))
  for (const t of tf.tests ?? []) testFileOf.set(t.id, name || t.name.split(': ')[0])

function kindOf(testId) {
  const f = testFileOf.get(testId) ?? String(testId).split(': ')[0]
  const m = /(?:^|\/)test\/(unit|flow|sim|repo)\//.exec(f.split(path.sep).join('/'))
  return m ? m[1] : 'other'
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
for (const [name, f] of Object.entries(report.files)) {
  const area = areas.get(areaOf(name)) ?? empty()
  areas.set(areaOf(name), area)
  area.files++
  total.files++
  for (const m of f.mutants) {
    for (const a of [area, total]) {
      a.mutants++
      if (m.status === 'CompileError' || m.status === 'RuntimeError') a.errors++
      else if (a[m.status] !== undefined) a[m.status]++
      if (m.status === 'Killed' && m.killedBy?.length) {
        const kind = kindOf(m.killedBy[0])
        a.firstKill[kind]++
        if (kind === 'repo') a.docOnly++
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
console.log(`Mutation score by area (${file})`)
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
if (min !== undefined && behaviourValue(total) < min) {
  console.error(`The behaviour score is below ${min} %.`)
  process.exitCode = 1
}
