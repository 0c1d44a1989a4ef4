// Test helper: bundles a source entry point with esbuild (as script/build.mjs does) into a temp
// folder, so tests run the current sources as a real child process without touching dist/.
import { build } from 'esbuild'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const cache = new Map<string, Promise<string>>()

export function bundleEntry(entry: string): Promise<string> {
  let p = cache.get(entry)
  if (!p) {
    p = (async () => {
      const out = path.join(
        mkdtempSync(path.join(tmpdir(), 'bundle-')),
        path.basename(entry).replace(/\.ts$/, '.mjs')
      )
      await build({
        entryPoints: [entry],
        outfile: out,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        logLevel: 'error',
        banner: {
          js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);"
        }
      })
      return out
    })()
    cache.set(entry, p)
  }
  return p
}
