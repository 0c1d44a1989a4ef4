// `plan --mode uninstall`: what uninstall would remove in its order, as commands a person could
// run with the mark each object must carry, what it waits for, what happens to the pool and the
// cluster for each `cleanup`, what always stays, and the text and Markdown it prints.
import { describe, expect, it } from '@jest/globals'
import {
  buildUninstallPlan,
  renderUninstallPlanMarkdown,
  renderUninstallPlanText
} from '../../../src/plan/uninstall-plan.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

const settings = (inputs: Record<string, string> = {}) =>
  readSettings(reader({ ...VALID_APPLY, ...inputs }), {}).settings

describe('buildUninstallPlan', () => {
  it('lists the steps with their commands, each guarded by the record that makes it the action’s', () => {
    const s = settings()
    const plan = buildUninstallPlan(s)
    expect(plan).toMatchObject({
      mode: 'plan',
      planMode: 'uninstall',
      cluster: { resourceGroup: s.cluster.resourceGroup, name: s.cluster.name, nodePool: s.nodePool.name }
    })
    expect(plan.steps[0].name).toBe('probe-leftovers')
    const step = (name: string) => plan.steps.find(x => x.name === name)!
    expect(step('gpu-operator').commands).toEqual([
      'helm uninstall gpu-operator -n gpu-operator --wait  # only when it runs chart gpu-operator and is recorded with its first deployment (or adopt-releases: true)',
      'kubectl delete namespace gpu-operator --wait  # only when recorded in kube-system/aks-rdma-action-owned with its live uid'
    ])
    expect(step('rdma-device-plugin').commands).toEqual([
      'kubectl delete daemonset rdma-shared-dp-ds -n kube-system --wait  # only when recorded in kube-system/aks-rdma-action-owned with its live uid',
      'kubectl delete configmap rdma-devices -n kube-system --wait  # only when recorded in kube-system/aks-rdma-action-owned with its live uid'
    ])
    expect(step('nic-cluster-policy').waits).toEqual([
      'kubectl wait --for=delete daemonset -n network-operator -l nvidia.com/ofed-driver',
      'kubectl wait --for=delete pod -n network-operator -l nvidia.com/ofed-driver'
    ])
    for (const st of plan.steps) for (const c of st.commands) expect(c).toMatch(/ {2}# only (with|when) /)
    expect(plan.stays).toHaveLength(3)
    expect(plan.stays[0]).toMatch(/^the CRDs the charts installed/)
  })

  it('says what becomes of the pool and the cluster for each cleanup', () => {
    const s = settings()
    expect(buildUninstallPlan(s).azure).toBe(
      `node pool ${s.nodePool.name} and cluster ${s.cluster.resourceGroup}/${s.cluster.name} stay (cleanup: none)`
    )
    expect(buildUninstallPlan(settings({ cleanup: 'node-pool' })).azure).toBe(
      `node pool ${s.nodePool.name}: deleted when its aks-rdma-action-created-by tag is a run identity the action wrote (and the one the ownership record holds, when it holds one); cluster ${s.cluster.resourceGroup}/${s.cluster.name} stays`
    )
    expect(
      buildUninstallPlan(settings({ cleanup: 'cluster', 'create-cluster': 'true', location: 'eastus' })).azure
    ).toBe(
      `cluster ${s.cluster.resourceGroup}/${s.cluster.name}: deleted when its aks-rdma-action-created-by tag is a run identity the action wrote, with its pools`
    )
  })
})

describe('the uninstall plan as text and Markdown', () => {
  it('numbers the steps in order, with commands, waits and notes indented, then Azure and what stays', () => {
    const plan = buildUninstallPlan(settings())
    plan.steps = [
      { name: 'a', title: 'first', commands: ['c1'], waits: ['w1'], note: 'why' },
      { name: 'b', title: 'second', commands: [], waits: [] }
    ]
    plan.stays = ['x', 'y']
    const text = renderUninstallPlanText(plan)
    // Its second line: what uninstall does instead while other managed pools remain.
    expect(text.split('\n')[1]).toMatch(
      /^When other managed pools remain .* pool rdmapool is taken out of the managed pools/
    )
    expect(text.split('\n').slice(2)).toEqual([
      '',
      '1. a — first',
      '  c1',
      '  w1',
      '  (why)',
      '',
      '2. b — second',
      '',
      `Azure: ${plan.azure}`,
      '',
      'Stays:',
      '  - x',
      '  - y',
      ''
    ])
    expect(text.split('\n')[0]).toBe(
      `Uninstall plan for ${plan.cluster.resourceGroup}/${plan.cluster.name} (pool ${plan.cluster.nodePool}): removes only what the action created (what kube-system/aks-rdma-action-owned records; a label is never enough), in reverse order, under the Lease`
    )
  })

  it('puts the text in one code block, so no line of it can close the block', () => {
    const plan = buildUninstallPlan(settings())
    plan.steps = [{ name: 'a', title: 'has ``` inside', commands: [], waits: [] }]
    const md = renderUninstallPlanMarkdown(plan)
    expect(
      md.startsWith(
        `## aks-rdma-action uninstall plan: ${plan.cluster.resourceGroup}/${plan.cluster.name}\n\n\`\`\`\n`
      )
    ).toBe(true)
    expect(md).toContain("1. a — has ''' inside")
    expect(md.match(/```/g)).toHaveLength(2)
    expect(md.endsWith('\n```\n')).toBe(true)
  })
})
