// npm run mutate: the Stryker run (stryker.config.mjs; arguments after `--` go to Stryker, e.g.
// `npm run mutate -- --mutate 'src/stack/**'`), then the score per area of src/ from the report it
// wrote (script/mutation/report-by-area.mjs), printed whether or not the run reached its
// threshold — when this run wrote one (a run stopped early writes none). Exits with Stryker's code.
import { spawnSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

const require = createRequire(import.meta.url)
const stryker = path.join(
  path.dirname(require.resolve('@stryker-mutator/core/package.json')),
  'bin/stryker.js'
)
const REPORT = 'reports/mutation/mutation.json'
const started = Date.now()
const run = spawnSync(process.execPath, [stryker, 'run', 'stryker.config.mjs', ...process.argv.slice(2)], {
  stdio: 'inherit'
})
if (existsSync(REPORT) && statSync(REPORT).mtimeMs >= started)
  spawnSync(process.execPath, [path.join(import.meta.dirname, 'report-by-area.mjs'), REPORT], {
    stdio: 'inherit'
  })
else console.error(`No per-area table: the run wrote no ${REPORT}.`)
process.exit(run.status ?? 1)
