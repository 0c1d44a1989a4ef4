// Test helper: bundles sim/helm/main-entry.ts with esbuild (as script/build.mjs does) into a temp
// folder once per test file and writes an executable `helm` shell script next to it, so tests run
// the helm stand-in as a real child process found on PATH without touching dist/.
import { build } from 'esbuild'
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

let built: Promise<string> | undefined

const BANNER = [
  "import { createRequire as __cr } from 'node:module';",
  "import { fileURLToPath as __fu } from 'node:url';",
  "import { dirname as __dn } from 'node:path';",
  'const require = __cr(import.meta.url);',
  'const __filename = __fu(import.meta.url);',
  'const __dirname = __dn(__filename);'
].join('\n')

/** Directory holding an executable `helm` (the stand-in); put it first on PATH. */
export function helmStandinBinDir(): Promise<string> {
  built ??= (async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'helm-standin-'))
    const bundle = path.join(dir, 'helm-standin.mjs')
    await build({
      entryPoints: [path.resolve(process.cwd(), 'sim/helm/main-entry.ts')],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
      banner: { js: BANNER }
    })
    const script = path.join(dir, 'helm')
    writeFileSync(script, `#!/bin/sh\nexec "${process.execPath}" "${bundle}" "$@"\n`)
    chmodSync(script, 0o755)
    return dir
  })()
  return built
}
