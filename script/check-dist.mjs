// Fails when dist/ is not what the sources build to: rebuilds into a temporary folder and
// compares every file (entry bundles and their chunks, recursively) byte for byte with the
// committed dist/.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, existsSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/** Every file below `dir`, as paths relative to it. */
function files(dir, base = dir, out = []) {
  if (!existsSync(dir)) return out
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) files(full, base, out)
    else out.push(path.relative(base, full))
  }
  return out
}

const fresh = mkdtempSync(path.join(tmpdir(), 'dist-check-'))
execFileSync(process.execPath, ['script/build.mjs', '--outdir', fresh], { stdio: 'inherit' })
const names = new Set([...files(fresh), ...files('dist')])
const stale = []
for (const name of [...names].sort()) {
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
