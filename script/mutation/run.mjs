// npm run mutate: the Stryker run (stryker.config.mjs; arguments after `--` go to Stryker, e.g.
// `npm run mutate -- --mutate 'src/stack/**'`), then the score per area of src/ from the report it
// wrote (script/mutation/report-by-area.mjs), printed whether or not the run reached its
// threshold. Exits with Stryker's code.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'

const require = createRequire(import.meta.url)
const stryker = path.join(
  path.dirname(require.resolve('@stryker-mutator/core/package.json')),
  'bin/stryker.js'
)
const run = spawnSync(process.execPath, [stryker, 'run', 'stryker.config.mjs', ...process.argv.slice(2)], {
  stdio: 'inherit'
})
spawnSync(process.execPath, [path.join(import.meta.dirname, 'report-by-area.mjs')], { stdio: 'inherit' })
process.exit(run.status ?? 1)
