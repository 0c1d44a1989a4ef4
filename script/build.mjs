// Bundles the three entry points into dist/ with esbuild: the action (index.js), its post step
// (post.js) and the command line tool (cli.js, the only bundle that carries the simulator).
// `node script/build.mjs --outdir DIR` builds elsewhere (used by the dist freshness check).
import { build } from 'esbuild'
import { rmSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
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
  // CommonJS dependencies inside an ESM bundle need `require`, `__dirname` and `__filename`. The
  // banner declares no top-level name a bundled module could also declare (a `const __dirname`
  // banner once clashed with the bundled `open` package's own and post.js failed to load):
  // `require` goes on globalThis, and the two paths are rewritten to import.meta fields.
  banner: {
    js: [
      "import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';",
      'globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);'
    ].join('\n')
  },
  define: { __dirname: 'import.meta.dirname', __filename: 'import.meta.filename' },
  // A worktree whose node_modules links to another checkout's builds the same bundles as a clone.
  preserveSymlinks: true
}

// The simulated API server reads the official Kubernetes .proto files next to its source
// (sim/kube/apiserver/proto-files.ts); the bundle carries their texts inline instead.
const PROTO_DIR = 'sim/kube/apiserver/proto'
function protoTexts(dir, out = {}) {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) protoTexts(full, out)
    else if (name.endsWith('.proto'))
      out[path.relative(PROTO_DIR, full).split(path.sep).join('/')] = readFileSync(full, 'utf8')
  }
  return out
}
const inlineProtoFiles = {
  name: 'inline-proto-files',
  setup(b) {
    b.onLoad({ filter: /[\\/]sim[\\/]kube[\\/]apiserver[\\/]proto-files\.ts$/ }, () => ({
      contents: `const FILES = ${JSON.stringify(protoTexts(PROTO_DIR))}\nexport function protoFiles() { return FILES }\n`,
      loader: 'js'
    }))
  }
}
shared.plugins = [inlineProtoFiles]

const entries = { index: 'src/index.ts', post: 'src/post.ts', cli: 'cli/main.ts' }
for (const [name, entry] of Object.entries(entries)) {
  await build({ ...shared, entryPoints: [entry], outfile: path.join(outdir, `${name}.js`) })
}
