// The az commands the action suggests run as printed: every scope argument (subscription when
// known, resource group, cluster, pool), words quoted for a POSIX shell, labels and taints as
// azure-cli takes them, and no command where az would refuse (a taint without a value).
import { describe, expect, it } from '@jest/globals'
import {
  clusterCommand,
  labelsCommand,
  nodepoolCommand,
  nodeTaintsCommand,
  shellWord
} from '../../../src/model/az-commands.js'

const target = { subscriptionId: '00000000-0000-0000-0000-000000000001', resourceGroup: 'rg', cluster: 'aks' }
const SCOPE = '--subscription 00000000-0000-0000-0000-000000000001 --resource-group rg'

describe('shellWord', () => {
  it.each([
    ['key=value:NoSchedule', 'key=value:NoSchedule'],
    ['a,b@c%d+e-f/g.h_i', 'a,b@c%d+e-f/g.h_i'],
    ['', "''"],
    ['two words', "'two words'"],
    ['$(rm -rf ~)', "'$(rm -rf ~)'"],
    ["it's", "'it'\\''s'"],
    ['x\ny', "'x\ny'"]
  ])('leaves plain words, quotes the rest and escapes single quotes: %j → %s', (word, quoted) => {
    expect(shellWord(word)).toBe(quoted)
  })
})

describe('az commands', () => {
  it('name the whole scope, the subscription only when known', () => {
    expect(nodepoolCommand(target, 'show', 'rdma')).toBe(
      `az aks nodepool show ${SCOPE} --cluster-name aks --name rdma`
    )
    expect(
      nodepoolCommand({ resourceGroup: 'my rg', cluster: 'aks' }, 'scale', 'rdma', ['--node-count', '2'])
    ).toBe("az aks nodepool scale --resource-group 'my rg' --cluster-name aks --name rdma --node-count 2")
    expect(clusterCommand(target, 'delete')).toBe(`az aks delete ${SCOPE} --name aks`)
  })
  it('give labels as sorted key=value words, or one empty word to clear them', () => {
    expect(labelsCommand(target, 'rdma', { b: '2', a: '1 x' })).toBe(
      `az aks nodepool update ${SCOPE} --cluster-name aks --name rdma --labels 'a=1 x' b=2`
    )
    expect(labelsCommand(target, 'rdma', {})).toBe(
      `az aks nodepool update ${SCOPE} --cluster-name aks --name rdma --labels ''`
    )
  })
  it('give taints sorted and comma-separated, and none when one has no value (az refuses it)', () => {
    expect(nodeTaintsCommand(target, 'rdma', ['sku=gpu:NoSchedule', 'a=b:NoExecute'])).toBe(
      `az aks nodepool update ${SCOPE} --cluster-name aks --name rdma --node-taints a=b:NoExecute,sku=gpu:NoSchedule`
    )
    expect(nodeTaintsCommand(target, 'rdma', [])).toBe(
      `az aks nodepool update ${SCOPE} --cluster-name aks --name rdma --node-taints ''`
    )
    expect(nodeTaintsCommand(target, 'rdma', ['sku=gpu:NoSchedule', 'dedicated:NoSchedule'])).toBeUndefined()
    expect(nodeTaintsCommand(target, 'rdma', ['sku=gpu'])).toBeUndefined()
    expect(nodeTaintsCommand(target, 'rdma', ['=gpu:NoSchedule'])).toBeUndefined()
  })
})
