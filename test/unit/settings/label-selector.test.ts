// ofed-drain-pod-selector is a Kubernetes label selector (the Network Operator passes it to the
// drain as one): the forms k8s.io/apimachinery's labels.Parse takes, and what it refuses.
import { describe, expect, it } from '@jest/globals'
import { labelSelectorProblem } from '../../../src/settings/input-definitions.js'

describe('label selectors', () => {
  it('takes equality, set-based and existence requirements, comma-separated', () => {
    for (const ok of [
      'aks-rdma-action/rdma-workload=true',
      'app==x, tier!=db',
      'team in (ml, infer),!legacy',
      'app notin (a,b),gpu',
      ''
    ])
      expect({ ok, problem: labelSelectorProblem(ok) }).toEqual({ ok, problem: undefined })
  })

  it('refuses what is not one, naming the form', () => {
    for (const bad of ['a=b=c', 'app in a,b', '=x', 'a b', 'bad key=1'])
      expect(labelSelectorProblem(bad)).toMatch(/^must be a Kubernetes label selector/)
  })
})
