// Outliers as values and as the names the report carries: every kind round-trips through its name,
// a link's ends keep their devices (or none), and sorting goes by name with duplicates dropped.
import { describe, expect, it } from '@jest/globals'
import { outlierName, parseOutlierName, sortedOutliers, type Outlier } from '../../../src/util/outliers.js'

describe('outliers', () => {
  const examples: Array<[Outlier, string]> = [
    [{ kind: 'node', node: 'aks-rdma-vmss000007' }, 'aks-rdma-vmss000007'],
    [{ kind: 'nic', node: 'aks-rdma-vmss000007', device: 'mlx5_ib3' }, 'aks-rdma-vmss000007/mlx5_ib3'],
    [
      { kind: 'link', a: { node: 'a', device: 'mlx5_ib0' }, b: { node: 'b', device: 'mlx5_ib0' } },
      'a/mlx5_ib0 ↔ b/mlx5_ib0'
    ],
    [{ kind: 'link', a: { node: 'a', device: null }, b: { node: 'b', device: null } }, 'a ↔ b']
  ]

  it.each(examples)('%j is named %s and read back from it', (outlier, name) => {
    expect(outlierName(outlier)).toBe(name)
    expect(parseOutlierName(name)).toEqual(outlier)
  })

  it('sorts by name and keeps one of each', () => {
    const sorted = sortedOutliers([
      { kind: 'node', node: 'c' },
      { kind: 'nic', node: 'a', device: 'mlx5_ib1' },
      { kind: 'node', node: 'c' },
      { kind: 'link', a: { node: 'a', device: null }, b: { node: 'b', device: null } }
    ])
    expect(sorted.map(outlierName)).toEqual(['a ↔ b', 'a/mlx5_ib1', 'c'])
  })
})
