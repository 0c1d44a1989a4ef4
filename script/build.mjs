// Bundles the three entry points into dist/ with esbuild: the action (index.js), its post step
// (post.js) and the command line tool (cli.js, the only bundle that carries the simulator).
// `node script/build.mjs --outdir DIR` builds elsewhere (used by the dist freshness check).
import { build } from 'esbuild'
import { rmSync, mkdirSync } from 'node:fs'
import path from 'node:path'

const argIndex = process.argv.indexOf('--outdir')
const outdir = argIndex > 0 ? process.argv[argIndex + 1] : 'dist'

rmSync(outdir, { recursive: true, force: true })
mkdirSync(outdir, { recursive: true })

const shared = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
  // CommonJS dependencies inside an ESM bundle need require/__dirname.
  banner: {
    js: [
      "import { createRequire as __cr } from 'node:module';",
      "import { fileURLToPath as __fu } from 'node:url';",
      "import { dirname as __dn } from 'node:path';",
      'const require = __cr(import.meta.url);',
      'const __filename = __fu(import.meta.url);',
      'const __dirname = __dn(__filename);'
    ].join('\n')
  }
}

const entries = { index: 'src/index.ts', post: 'src/post.ts', cli: 'src/cli.ts' }
for (const [name, entry] of Object.entries(entries)) {
  await build({ ...shared, entryPoints: [entry], outfile: path.join(outdir, `${name}.js`) })
}
