// The files every repository carries (CONTRIBUTING.md, "Layout"): LICENSE matching package.json's
// "license", SECURITY.md (private reporting, scope, docs/security.md), CODEOWNERS naming a team of
// the README's placeholder organisation, a Dependabot configuration with grouped weekly updates,
// and the runner version node24 needs, stated where users read how to reference the action.
import { describe, expect, test } from '@jest/globals'
import { existsSync, readFileSync } from 'node:fs'
import { parse } from 'yaml'

const read = (f: string): string => readFileSync(f, 'utf8')
const pkg = JSON.parse(read('package.json')) as { license: string }

describe('repository files', () => {
  test('LICENSE is the license package.json names, for the project authors', () => {
    expect(pkg.license).toBe('MIT')
    const text = read('LICENSE')
    expect(text.split('\n')[0]).toBe(`${pkg.license} License`)
    expect(text).toMatch(/^Copyright \(c\) 2026 The aks-rdma-action authors$/m)
    // The MIT grant and disclaimer, as the SPDX text words them.
    expect(text.replace(/\s+/g, ' ')).toContain(
      'Permission is hereby granted, free of charge, to any person obtaining a copy of this software'
    )
    expect(text).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND')
  })

  test('SECURITY.md says how to report privately, the scope, and links what the action trusts', () => {
    const text = read('SECURITY.md')
    expect(text).toMatch(/private vulnerability reporting/i)
    expect(text).toMatch(/\*\*Security\*\* tab/)
    expect(text).toMatch(/^## In scope$/m)
    expect(text).toMatch(/^## Not in scope$/m)
    const inScope = text.split(/^## In scope$/m)[1].split(/^## /m)[0]
    for (const part of ['The action', 'The CLI', '`dist/`']) expect(inScope).toContain(part)
    expect(text.split(/^## Not in scope$/m)[1]).toMatch(/simulator's fidelity/)
    expect(text).toContain('](docs/security.md)')
    expect(existsSync('docs/security.md')).toBe(true)
  })

  test('README and CONTRIBUTING link SECURITY.md and LICENSE', () => {
    for (const doc of ['README.md', 'CONTRIBUTING.md']) {
      expect({ doc, links: read(doc).includes('](SECURITY.md)') }).toEqual({ doc, links: true })
      expect({ doc, links: read(doc).includes('](LICENSE)') }).toEqual({ doc, links: true })
    }
  })

  test('CODEOWNERS gives every path to a team of the README placeholder organisation', () => {
    const org = /`(\w[\w-]*)\/aks-rdma-action@v1`/.exec(read('README.md'))?.[1]
    expect(org).toBe('org')
    const rules = read('.github/CODEOWNERS')
      .split('\n')
      .filter(l => l.trim() && !l.startsWith('#'))
      .map(l => l.trim().split(/\s+/))
    expect(rules).toEqual([['*', `@${org}/aks-rdma-action-maintainers`]])
    expect(read('.github/CODEOWNERS')).toMatch(/^#.*fork.*replace|^#.*replace.*fork/m)
  })

  test("the README and the example docs name the runner version action.yml's node24 needs", () => {
    const action = parse(read('action.yml')) as { runs: { using: string } }
    expect(action.runs.using).toBe('node24')
    for (const doc of ['README.md', 'docs/example-workflows.md']) {
      const text = read(doc).replace(/\s+/g, ' ')
      expect({ doc, states: /self-hosted runner.*v2\.327\.1 or newer/.test(text) }).toEqual({
        doc,
        states: true
      })
    }
    expect(read('README.md')).toContain('](docs/example-workflows.md#runner-requirements)')
    expect(read('docs/example-workflows.md')).toMatch(/^## Runner requirements$/m)
  })

  test('dependabot.yml updates npm and the actions weekly, each in groups', () => {
    const config = parse(read('.github/dependabot.yml')) as {
      version: number
      updates: Array<{
        'package-ecosystem': string
        directory: string
        schedule: { interval: string }
        groups?: Record<string, { 'dependency-type'?: string; patterns?: string[] }>
      }>
    }
    expect(config.version).toBe(2)
    const byEcosystem = new Map(config.updates.map(u => [u['package-ecosystem'], u]))
    expect([...byEcosystem.keys()].sort()).toEqual(['github-actions', 'npm'])
    for (const u of config.updates) {
      expect(u.directory).toBe('/')
      expect(u.schedule.interval).toBe('weekly')
      expect(Object.keys(u.groups ?? {}).length).toBeGreaterThan(0)
    }
    // npm: production and development dependencies in separate groups; actions: all in one.
    const npmTypes = Object.values(byEcosystem.get('npm')!.groups!).map(g => g['dependency-type'])
    expect(npmTypes.sort()).toEqual(['development', 'production'])
    expect(Object.values(byEcosystem.get('github-actions')!.groups!)).toEqual([{ patterns: ['*'] }])
  })
})
