// The workflows (the examples and the project's own) pass step outputs and other expressions to
// `run:` scripts through `env:`, never by `${{ }}` inside the script, where a value would become
// shell code; commented examples too.
import { describe, expect, test } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parse as parseYaml } from 'yaml'

const ROOT = process.cwd()
const files = [path.join(ROOT, 'workflows'), path.join(ROOT, '.github', 'workflows')].flatMap(dir =>
  readdirSync(dir)
    .filter(f => /\.ya?ml$/.test(f))
    .map(f => path.join(dir, f))
)

/** Every `run:` script of every job of a workflow document. */
function scripts(doc: any): string[] {
  return Object.values<any>(doc?.jobs ?? {}).flatMap(job =>
    (job.steps ?? []).filter((s: any) => typeof s.run === 'string').map((s: any) => s.run as string)
  )
}

describe('run: scripts take no ${{ }} expressions', () => {
  test.each(files.map(f => [path.relative(ROOT, f), f]))('%s', (_name, file) => {
    const text = readFileSync(file, 'utf8')
    for (const run of scripts(parseYaml(text))) expect(run).not.toMatch(/\$\{\{/)
    // Commented examples are copied by readers: the same rule.
    const commented = text
      .split('\n')
      .filter(l => /^\s*#.*\brun:/.test(l))
      .filter(l => l.includes('${{'))
    expect(commented).toEqual([])
  })

  test('the check sees real scripts', () => {
    expect(files.length).toBeGreaterThan(3)
    expect(files.flatMap(f => scripts(parseYaml(readFileSync(f, 'utf8')))).length).toBeGreaterThan(3)
  })
})
