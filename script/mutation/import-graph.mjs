// The project's import graph as the mutation run's test runner needs it: which project files a
// test file loads, directly or through others (relative `import … from`, `export … from`,
// side-effect imports and dynamic `import('./x.js')` with a literal path; NodeNext `./x.js`
// finds `./x.ts`). A static mutant — one in code that runs while a module loads — can only change
// what the test files that load its module see, so only those are reloaded and run for it.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

const SPECIFIERS = [
  /\b(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*['"]([^'"]+)['"]/g,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g
]
const TYPE_ONLY = /^(?:import|export)\s+type\s/

/** The project file a relative specifier in `from` names, or undefined (packages, missing files). */
function resolveRelative(from, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined
  const target = path.resolve(path.dirname(from), specifier)
  const candidates = target.endsWith('.js') ? [target.replace(/\.js$/, '.ts'), target] : [target]
  return candidates.find(c => existsSync(c) && !c.includes(`${path.sep}node_modules${path.sep}`))
}

export class ImportGraph {
  constructor() {
    /** @type {Map<string, string[]>} absolute file → the project files it imports */
    this.edges = new Map()
    /** @type {Map<string, Set<string>>} */
    this.closures = new Map()
  }

  importsOf(file) {
    let out = this.edges.get(file)
    if (out) return out
    const text = readFileSync(file, 'utf8')
    const found = new Set()
    for (const re of SPECIFIERS)
      for (const m of text.matchAll(re)) {
        if (TYPE_ONLY.test(m[0])) continue // erased on transpiling: nothing is loaded
        const r = resolveRelative(file, m[1])
        if (r) found.add(r)
      }
    out = [...found]
    this.edges.set(file, out)
    return out
  }

  /** Every project file `file` loads, itself included. */
  closure(file) {
    let seen = this.closures.get(file)
    if (seen) return seen
    seen = new Set([file])
    const todo = [file]
    while (todo.length)
      for (const next of this.importsOf(todo.pop()))
        if (!seen.has(next)) {
          seen.add(next)
          todo.push(next)
        }
    this.closures.set(file, seen)
    return seen
  }
}
