// The repository's shape: action.yml matches the input definitions (and the README tables), runs
// on node24 with a post step, the action bundles carry no simulator or test code, and the import
// graph has no cycle — between files, or between the folders of src/ — and no import from the
// action into the simulator or the CLI.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import ts from 'typescript'
import { parse } from 'yaml'
import { INPUTS, OUTPUTS } from '../../src/settings/input-definitions.js'

describe('repository', () => {
  const action = parse(readFileSync('action.yml', 'utf8'))

  it('action.yml runs the bundles on node24 with a post step', () => {
    expect(action.runs).toMatchObject({ using: 'node24', main: 'dist/index.js', post: 'dist/post.js' })
  })

  it('action.yml declares exactly the defined inputs and outputs, with defaults', () => {
    expect(Object.keys(action.inputs)).toEqual(INPUTS.map(i => i.name))
    for (const i of INPUTS) {
      expect(action.inputs[i.name].description).toBe(i.description)
      expect(action.inputs[i.name].default).toBe(i.default)
    }
    expect(Object.keys(action.outputs)).toEqual(OUTPUTS.map(o => o.name))
  })

  it('action.yml and the README tables are generated from the definitions', () => {
    expect(() =>
      execFileSync(process.execPath, ['script/docs.mjs', '--check'], { stdio: 'pipe' })
    ).not.toThrow()
  })

  it('the action bundles (and every chunk they load) do not contain the simulator or tests', async () => {
    // The build's own account of which sources went into which output file.
    const { buildDist } = (await import(pathToFileURL(path.resolve('script/build.mjs')).href)) as {
      buildDist(o: { outdir: string; metafile: boolean }): Promise<{
        outputs: Record<
          string,
          { inputs: Record<string, unknown>; imports: Array<{ path: string; external?: boolean }> }
        >
      }>
    }
    const outdir = mkdtempSync(path.join(tmpdir(), 'repo-dist-'))
    const meta = await buildDist({ outdir, metafile: true })
    const outputs = new Map(Object.entries(meta.outputs).map(([k, v]) => [path.resolve(k), v]))
    const reachable = new Set<string>()
    const visit = (file: string): void => {
      if (reachable.has(file)) return
      reachable.add(file)
      for (const i of outputs.get(file)?.imports ?? []) if (!i.external) visit(path.resolve(i.path))
    }
    for (const entry of ['index.js', 'post.js']) visit(path.join(outdir, entry))
    expect(reachable.size).toBeGreaterThan(2)
    for (const file of reachable) {
      const inputs = Object.keys(outputs.get(file)!.inputs)
      expect({ file, foreign: inputs.filter(i => /^(sim|test|cli)\//.test(i)) }).toEqual({
        file,
        foreign: []
      })
      const text = readFileSync(file, 'utf8')
      for (const marker of ['simulator CA', 'helm stand-in', '@jest/globals', 'test/support'])
        expect({ file, marker, found: text.includes(marker) }).toEqual({ file, marker, found: false })
    }
    // The simulator is in the build, only elsewhere.
    expect(
      [...outputs.entries()].some(
        ([f, o]) => !reachable.has(f) && Object.keys(o.inputs).some(i => i.startsWith('sim/'))
      )
    ).toBe(true)
  })
})

/** Every .ts file below `dir`, relative to the repository root. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap(f => {
    const p = path.join(dir, f)
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : []
  })
}

/** File → the files it imports (static, dynamic and type-only imports and re-exports alike). */
function importGraph(roots: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of roots.flatMap(tsFiles)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    graph.set(
      file,
      importedFiles
        .map(i => i.fileName)
        .filter(f => f.startsWith('.'))
        .map(f => path.join(path.dirname(file), f.replace(/\.js$/, '.ts')))
    )
  }
  return graph
}

/** The cycles a depth-first walk meets, each as `a -> b -> a`. */
function cycles(graph: Map<string, Iterable<string>>): string[] {
  const found: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (n: string): void => {
    state.set(n, 'open')
    stack.push(n)
    for (const m of graph.get(n) ?? []) {
      if (state.get(m) === 'open') found.push([...stack.slice(stack.indexOf(m)), m].join(' -> '))
      else if (!state.has(m)) visit(m)
    }
    stack.pop()
    state.set(n, 'done')
  }
  for (const n of graph.keys()) if (!state.has(n)) visit(n)
  return found
}

describe('import graph', () => {
  const graph = importGraph(['src', 'sim', 'cli'])

  it('finds the imports it looks for (a sanity check of the parser)', () => {
    expect(graph.get(path.join('src', 'stack', 'apply.ts'))).toEqual(
      expect.arrayContaining([
        path.join('src', 'stack', 'run.ts'),
        path.join('src', 'components', 'index.ts')
      ])
    )
  })

  it('has no cycle between files', () => {
    expect(cycles(graph)).toEqual([])
  })

  it('has no cycle between the folders of src/', () => {
    // A folder is a directory below src/ (src/stack, src/components, src/model ...); the entry
    // points directly in src/ (index.ts, main.ts, post.ts) sit on top of them all.
    const folders = new Map<string, Set<string>>()
    for (const [file, imports] of graph) {
      const from = path.dirname(file)
      if (!file.startsWith(`src${path.sep}`) || from === 'src') continue
      const to = folders.get(from) ?? new Set<string>()
      for (const i of imports)
        if (path.dirname(i) !== from && path.dirname(i) !== 'src' && i.startsWith('src'))
          to.add(path.dirname(i))
      folders.set(from, to)
    }
    expect(cycles(folders)).toEqual([])
  })

  it('never imports the simulator or the CLI from the action', () => {
    const outside = [...graph]
      .filter(([file]) => file.startsWith(`src${path.sep}`))
      .flatMap(([file, imports]) =>
        imports.filter(i => !i.startsWith(`src${path.sep}`)).map(i => `${file} -> ${i}`)
      )
    expect(outside).toEqual([])
  })
})
