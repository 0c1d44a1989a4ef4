// The line rate a benchmark is judged against and the ends of a slow pair: the fastest active IB
// port the probes saw (a port that trained lower is the finding), else the VM size's nominal rate;
// ports below it; an outlier pair narrowed to the one slow end, and a node named when every one of
// its devices is.
import { describe, expect, it } from '@jest/globals'
import { fleetLineRate, refineOutliers, slowPorts } from '../../../src/benchmark/link-rate.js'
import { outlierName, parseOutlierName } from '../../../src/util/outliers.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { emptyFacts, type NodeFacts } from '../../../src/verify/probe-output.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

/** refineOutliers over outlier names, as the report carries them. */
const refine = (names: string[], slow: Set<string>, devicesPerNode?: Map<string, number>): string[] =>
  refineOutliers(names.map(parseOutlierName), slow, devicesPerNode).map(outlierName)

const settings = (vm: string) => readSettings(reader({ ...VALID_APPLY, 'vm-size': vm })).settings
function facts(node: string, rates: Record<string, number | null>): NodeFacts {
  return { ...emptyFacts(node, ''), error: null, activeDevices: Object.keys(rates), rateGbps: rates }
}

describe('fleetLineRate', () => {
  it('the highest probed rate of an active port, whatever order the nodes come in', () => {
    const a = facts('a', { mlx5_ib0: 100, mlx5_ib1: 200 })
    const b = facts('b', { mlx5_ib0: 400, mlx5_ib1: null })
    expect(fleetLineRate([a, b], settings('Standard_ND96asr_v4'))).toBe(400)
    expect(fleetLineRate([b, a], settings('Standard_ND96asr_v4'))).toBe(400)
    const inactive = { ...facts('c', { mlx5_ib0: 800 }), activeDevices: [] }
    expect(fleetLineRate([a, inactive], settings('Standard_ND96asr_v4'))).toBe(200)
  })
  it('no rate printed: the size’s nominal rate, or none for a size the table does not know', () => {
    expect(fleetLineRate([facts('a', { mlx5_ib0: null })], settings('Standard_ND96isr_H100_v5'))).toBe(400)
    expect(fleetLineRate([], settings('Standard_ND96asr_v4'))).toBe(200)
    const unknown = settings('Standard_ND96asr_v4')
    unknown.nodePool.vmSize = 'Standard_ND96isr_B300_v7' // not in the table
    expect(fleetLineRate([], unknown)).toBeNull()
  })
})

describe('slowPorts', () => {
  it('node/device ends below the line; a port without a rate is not slow; no line, nothing', () => {
    const f = [facts('a', { mlx5_ib0: 200, mlx5_ib1: 100, mlx5_ib2: null }), facts('b', { mlx5_ib0: 199 })]
    expect([...slowPorts(f, 200)]).toEqual(['a/mlx5_ib1', 'b/mlx5_ib0'])
    expect([...slowPorts(f, null)]).toEqual([])
    expect([...slowPorts(f, 0)]).toEqual([])
  })
})

describe('refineOutliers', () => {
  it('a pair with exactly one slow end becomes that end; otherwise the pair stays; sorted', () => {
    const slow = new Set(['b/mlx5_ib1', 'c/mlx5_ib0', 'd/mlx5_ib0'])
    expect(
      refine(
        ['a/mlx5_ib1 ↔ b/mlx5_ib1', 'c/mlx5_ib0 ↔ d/mlx5_ib0', 'e/mlx5_ib2 ↔ f/mlx5_ib2', 'node-z'],
        slow
      )
    ).toEqual(['b/mlx5_ib1', 'c/mlx5_ib0 ↔ d/mlx5_ib0', 'e/mlx5_ib2 ↔ f/mlx5_ib2', 'node-z'])
  })
  it('every device of a node named: the node is named instead (only with its device count known)', () => {
    const out = ['a/mlx5_ib0', 'a/mlx5_ib1', 'b/mlx5_ib0', 'a/x y', 'c']
    expect(
      refine(
        out,
        new Set(),
        new Map([
          ['a', 2],
          ['b', 2]
        ])
      )
    ).toEqual(['a', 'a/x y', 'b/mlx5_ib0', 'c'])
    expect(refine(out, new Set(), new Map([['a', 3]]))).toEqual([...out].sort())
    expect(refine(out, new Set(), new Map([['a', 0]]))).toEqual([...out].sort())
    expect(refine(out, new Set())).toEqual([...out].sort())
    expect(refine(['x/y/z'], new Set(), new Map([['x', 1]]))).toEqual(['x/y/z'])
  })
})
