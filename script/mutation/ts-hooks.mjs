// Module hooks for the mutation run's in-process test runner (script/mutation/in-process-runner.mjs):
// the project's TypeScript is transpiled on load with esbuild (as ts-jest's isolatedModules does:
// types dropped, nothing checked), NodeNext `./x.js` specifiers find their `./x.ts`, `@jest/globals`
// is the runner's own describe/it/expect, and a project module imported by a reloaded test
// environment (`?mutation-env=N` on its importer) is a fresh instance, so a static mutant's
// module-level code runs again. Packages in node_modules are shared by every environment.
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { transformSync } from 'esbuild'

let root = ''
let globalsUrl = ''
/** Transpiled sources by path and text (a reload reads the same files again). */
const transpiled = new Map()

export function initialize(data) {
  root = pathToFileURL(data.root.endsWith('/') ? data.root : `${data.root}/`).href
  globalsUrl = data.globalsUrl
}

const isProjectFile = url => url.startsWith(root) && !url.slice(root.length).startsWith('node_modules/')

function envOf(url) {
  const m = /[?&]mutation-env=(\d+)/.exec(url ?? '')
  return m ? m[1] : undefined
}

function withEnv(url, env) {
  if (env === undefined || !isProjectFile(url)) return url
  const bare = url.replace(/\?.*$/, '')
  return `${bare}?mutation-env=${env}`
}

export async function resolve(specifier, context, next) {
  if (specifier === '@jest/globals') return { url: globalsUrl, shortCircuit: true, format: 'module' }
  const env = envOf(context.parentURL)
  if ((specifier.startsWith('./') || specifier.startsWith('../')) && specifier.endsWith('.js')) {
    const parent = context.parentURL?.replace(/\?.*$/, '')
    if (parent) {
      const ts = new URL(specifier.replace(/\.js$/, '.ts'), parent).href
      if (isProjectFile(ts) && existsSync(fileURLToPath(ts)))
        return { url: withEnv(ts, env), shortCircuit: true, format: 'module' }
    }
  }
  const r = await next(specifier, context)
  return { ...r, url: withEnv(r.url, env) }
}

export async function load(url, context, next) {
  const bare = url.replace(/\?.*$/, '')
  if (!bare.endsWith('.ts') || !isProjectFile(bare)) return next(url, context)
  const file = fileURLToPath(bare)
  const text = readFileSync(file, 'utf8')
  const key = `${file}\0${text.length}`
  let entry = transpiled.get(key)
  if (!entry || entry.text !== text) {
    const out = transformSync(text, {
      loader: 'ts',
      format: 'esm',
      target: 'node22',
      sourcefile: file
    })
    entry = { text, code: out.code }
    transpiled.set(key, entry)
  }
  return { format: 'module', source: entry.code, shortCircuit: true }
}
