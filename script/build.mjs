// Bundles the three entry points into dist/ with esbuild: the action (index.js), its post step
// (post.js) and the command line tool (cli.js, the only entry that reaches the simulator).
// One build, minified and tree-shaken, split at every dynamic import into shared chunks
// (dist/chunks/): an entry file holds only what runs before its first dynamic import, so the
// action prints its first line before the Azure SDK and the Kubernetes client are even parsed,
// plan mode never loads them, and the simulator's chunks are reachable from cli.js alone
// (test/repo/shape.test.ts checks that from the build's metafile). Chunk names carry a content hash:
// the same sources always build the same bytes (check-dist compares every file).
// cli.js (package.json's bin) keeps its `#!/usr/bin/env node` line and is made executable.
// `node script/build.mjs --outdir DIR` builds elsewhere (used by the dist freshness check).
// As a module, buildDist({ outdir, metafile }) returns esbuild's metafile for tests.
import { build } from 'esbuild'
import { chmodSync, rmSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** The CLI prints it for `--version` (a release bumps package.json, then rebuilds). */
const VERSION = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version

// The simulated API server reads the official Kubernetes .proto files next to its source
// (sim/kube/apiserver/proto-files.ts); the bundle carries their texts inline instead.
const PROTO_DIR = path.join(root, 'sim/kube/apiserver/proto')
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

export const ENTRIES = { index: 'src/index.ts', post: 'src/post.ts', cli: 'cli/main.ts' }

export async function buildDist({ outdir, metafile = false }) {
  rmSync(outdir, { recursive: true, force: true })
  mkdirSync(outdir, { recursive: true })
  const result = await build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir,
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    minify: true,
    treeShaking: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    legalComments: 'none',
    logLevel: 'warning',
    metafile,
    // CommonJS dependencies inside an ESM bundle need `require`, `__dirname` and `__filename`. The
    // banner (on every output file) declares no top-level name a bundled module could also declare
    // (a `const __dirname` banner once clashed with the bundled `open` package's own and post.js
    // failed to load): `require` goes on globalThis, and the two paths are rewritten to
    // import.meta fields.
    banner: {
      js: [
        "import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';",
        'globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);'
      ].join('\n')
    },
    define: {
      __dirname: 'import.meta.dirname',
      __filename: 'import.meta.filename',
      __AKS_RDMA_ACTION_VERSION__: JSON.stringify(VERSION)
    },
    // A worktree whose node_modules links to another checkout's builds the same bundles as a clone.
    preserveSymlinks: true,
    plugins: [inlineProtoFiles]
  })
  // cli.js starts with cli/main.ts's `#!/usr/bin/env node`: package.json's bin, runnable as it is.
  chmodSync(path.join(outdir, 'cli.js'), 0o755)
  return result.metafile
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argIndex = process.argv.indexOf('--outdir')
  const outdir = path.resolve(argIndex > 0 ? process.argv[argIndex + 1] : path.join(root, 'dist'))
  await buildDist({ outdir })
}
