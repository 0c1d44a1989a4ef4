// Oversized input: a value quoted back in an error is cut short with its size said (also in the
// main step's ::error:: annotation); list inputs are capped (labels, taints, zones) and report
// only their first few bad entries.
import { afterEach, describe, expect, it } from '@jest/globals'
import { runMain } from '../../../src/main.js'
import { LIST_LIMITS, readSettings } from '../../../src/settings/input-helper.js'
import { ECHO_MAX_CHARS, echoValue, truncate } from '../../../src/util/echo.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { problemsOf as problemsOfInputs } from '../../support/input-problems.js'

/** The problems of the valid apply inputs with `values` changed. */
const problemsOf = (values: Record<string, string>) => problemsOfInputs({ ...VALID_APPLY, ...values })

const HUGE = 'a'.repeat(120_000)

describe('echoed values', () => {
  it('a short value is quoted whole; a long one is cut with its length said', () => {
    expect(echoValue('aks1')).toBe('"aks1"')
    const e = echoValue(HUGE)
    expect(e).toBe(`"${'a'.repeat(ECHO_MAX_CHARS - 1)}…" (120000 characters)`)
    expect(truncate('abcdef', 4)).toBe('abc…')
    expect(truncate('abc', 4)).toBe('abc')
  })

  it('a 120 KB cluster-name, image and label come back as a short problem each', () => {
    const problems = problemsOf({
      'cluster-name': HUGE,
      'benchmark-image': `x/${HUGE}`,
      'node-labels': `k=${HUGE}`
    })
    expect(problems).toHaveLength(3)
    for (const p of problems) {
      expect(p.length).toBeLessThan(400)
      expect(p).toMatch(/\(12000\d characters\)/)
    }
    expect(problems[0]).toMatch(/^cluster-name "a{63}…" \(120000 characters\): must match/)
  })

  it('the main step: its ::error:: annotation stays short', async () => {
    const saved = { ...process.env }
    const out: string[] = []
    const write = process.stdout.write.bind(process.stdout)
    try {
      for (const [k, v] of Object.entries({ ...VALID_APPLY, 'cluster-name': HUGE }))
        process.env[`INPUT_${k.toUpperCase()}`] = v
      process.stdout.write = ((chunk: string | Uint8Array) => {
        out.push(String(chunk))
        return true
      }) as typeof process.stdout.write
      expect(await runMain()).toBe(2)
    } finally {
      process.stdout.write = write
      process.env = saved
      process.exitCode = undefined
    }
    const text = out.join('')
    expect(text).toMatch(/::error::/)
    expect(text).toContain('(120000 characters)')
    expect(text.length).toBeLessThan(1000)
  })
})

describe('list limits', () => {
  afterEach(() => undefined)

  it('3000 node labels: one problem for the count, three bad entries named, the rest counted', () => {
    const many = Array.from({ length: 3000 }, (_, i) => `k${i}=v${i}`).join(',')
    expect(problemsOf({ 'node-labels': many })).toEqual([
      `node-labels: 3000 entries; at most ${LIST_LIMITS['node-labels']}`
    ])
    const bad = Array.from({ length: 50 }, (_, i) => `bad key ${i}`).join(',')
    const p = problemsOf({ 'node-labels': bad })
    expect(p).toHaveLength(4)
    expect(p[3]).toBe('node-labels: 47 more invalid entries')
  })

  it('at the limit is accepted', () => {
    const labels = Array.from({ length: 100 }, (_, i) => `k${i}=v`).join(',')
    const taints = Array.from({ length: 100 }, (_, i) => `k${i}=v:NoSchedule`).join(',')
    const r = readSettings(
      reader({ ...VALID_APPLY, 'node-labels': labels, 'node-taints': taints, zones: '1,2,3' }),
      {}
    )
    expect(Object.keys(r.settings.nodePool.labels)).toHaveLength(100)
    expect(r.settings.nodePool.taints).toHaveLength(100)
    expect(r.settings.nodePool.zones).toEqual(['1', '2', '3'])
  })

  it('101 taints, four zones, a repeated zone', () => {
    const taints = Array.from({ length: 101 }, (_, i) => `k${i}=v:NoSchedule`).join(',')
    expect(problemsOf({ 'node-taints': taints })).toEqual(['node-taints: 101 entries; at most 100'])
    expect(problemsOf({ zones: '1,2,3,4' })).toContain('zones: 4 entries; at most 3')
    expect(problemsOf({ zones: '1,1' })).toEqual(['zones: each zone at most once'])
  })
})
