// Fails when dist/ is not what the sources build to: rebuilds into a temporary folder and
// compares every file byte for byte with the committed dist/.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, existsSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const fresh = mkdtempSync(path.join(tmpdir(), 'dist-check-'))
execFileSync(process.execPath, ['script/build.mjs', '--outdir', fresh], { stdio: 'inherit' })
const names = new Set([...readdirSync(fresh), ...(existsSync('dist') ? readdirSync('dist') : [])])
const stale = []
for (const name of names) {
  const a = path.join('dist', name)
  const b = path.join(fresh, name)
  if (!existsSync(a) || !existsSync(b) || !readFileSync(a).equals(readFileSync(b))) stale.push(name)
}
rmSync(fresh, { recursive: true, force: true })
if (stale.length > 0) {
  console.error(
    `dist/ is stale (${stale.join(', ')} differ from a fresh build). Run "npm run build" and commit dist/.`
  )
  process.exit(1)
}
console.log('dist/ is fresh')
