// What the action sends and runs, built from the settings: the helm command lines (values in a
// file, the step timeout in seconds), the Azure resource paths and bodies (the DNS prefix made
// valid, taints as AKS writes them, the pool's tags and zones), and the benchmark plan's GPU use
// and pass rule by scope.
import { benchmarkGpus, benchmarkPlan } from '../../../src/benchmark/plan.js'
import {
  clusterPath,
  desiredAgentPoolProperties,
  desiredCluster,
  dnsPrefixFor,
  featurePath,
  subscriptionPath,
  taintString
} from '../../../src/model/azure-resources.js'
import { helmRepoAddArgv, helmUpgradeArgv } from '../../../src/plan/helm-argv.js'
import type { HelmReleaseSpec } from '../../../src/model/types.js'
import { applySettings } from '../../support/apply-settings.js'

const settings = (over: Record<string, string> = {}) => applySettings(over, { GITHUB_RUN_ID: '77' })

describe('the helm command lines', () => {
  const spec = {
    release: 'network-operator',
    chart: 'nvidia/network-operator',
    version: 'v26.4.1',
    namespace: 'nvidia-network-operator',
    repo: { name: 'nvidia', url: 'https://helm.ngc.nvidia.com/nvidia' }
  } as HelmReleaseSpec

  it('adds the repository by name and URL', () => {
    expect(helmRepoAddArgv(spec)).toEqual(['repo', 'add', 'nvidia', 'https://helm.ngc.nvidia.com/nvidia'])
  })

  it('upgrades or installs the pinned chart from a values file, waiting up to the step timeout', () => {
    expect(helmUpgradeArgv(spec, '/tmp/values.yaml', { timeoutMs: 90_400 })).toEqual([
      'upgrade',
      '--install',
      'network-operator',
      'nvidia/network-operator',
      '--version',
      'v26.4.1',
      '--namespace',
      'nvidia-network-operator',
      '--create-namespace',
      '-f',
      '/tmp/values.yaml',
      '--wait',
      '--timeout',
      '90s'
    ])
    expect(helmUpgradeArgv(spec, 'v.yaml').slice(-1)).toEqual(['1500s'])
  })
})

describe('the Azure resources', () => {
  it('paths under the subscription, or its placeholder when not known yet', () => {
    const s = settings()
    expect(clusterPath(s)).toBe(
      `/subscriptions/${s.azure.subscriptionId}/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks1`
    )
    expect(featurePath(s)).toBe(
      `/subscriptions/${s.azure.subscriptionId}/providers/Microsoft.Features/providers/Microsoft.ContainerService/features/AKSInfinibandSupport`
    )
    expect(subscriptionPath({ ...s, azure: { ...s.azure, subscriptionId: undefined } })).toBe(
      '/subscriptions/<subscription-id>'
    )
  })

  it('a DNS prefix of letters, digits and hyphens, starting with one of the first two, at most 54', () => {
    expect(dnsPrefixFor('my_cluster.prod')).toBe('my-cluster-prod')
    expect(dnsPrefixFor('--edge--')).toBe('edge')
    expect(dnsPrefixFor('a'.repeat(60))).toBe('a'.repeat(54))
    expect(dnsPrefixFor('___')).toBe('aks')
    expect(dnsPrefixFor('')).toBe('aks')
  })

  it('the cluster it creates pins the Kubernetes version only when given, and says where it goes', () => {
    // Its whole body (system pool, identity, tags) is checked through the plan: plan-view.test.ts.
    const s = settings({ 'create-cluster': 'true', location: 'eastus', 'kubernetes-version': '1.34' })
    expect(desiredCluster(s)).toMatchObject({
      location: 'eastus',
      kubernetesVersion: '1.34',
      dnsPrefix: 'aks1'
    })
    expect(desiredCluster(s).tags).toEqual({
      'aks-rdma-action-managed': 'true',
      'aks-rdma-action-created-by': s.runId
    })
    const unpinned = desiredCluster(settings())
    expect(unpinned).not.toHaveProperty('kubernetesVersion')
    expect(unpinned.location).toBe('<location>')
  })

  it('taints as AKS writes them, with and without a value', () => {
    expect(taintString({ key: 'sku', value: 'gpu', effect: 'NoSchedule' })).toBe('sku=gpu:NoSchedule')
    expect(taintString({ key: 'dedicated', effect: 'NoExecute' } as never)).toBe('dedicated:NoExecute')
  })

  it('the RDMA pool: Linux user pool without the GPU driver, labels, taints, zones only when given, run tags', () => {
    const s = settings({ 'node-labels': 'team=ml', 'node-taints': 'sku=gpu:NoSchedule', zones: '1,2' })
    expect(desiredAgentPoolProperties(s)).toEqual({
      vmSize: s.nodePool.vmSize,
      count: 2,
      osType: 'Linux',
      osSKU: 'Ubuntu',
      mode: 'User',
      gpuProfile: { driver: 'None' },
      nodeLabels: { team: 'ml' },
      nodeTaints: ['sku=gpu:NoSchedule'],
      availabilityZones: ['1', '2'],
      tags: { 'aks-rdma-action-managed': 'true', 'aks-rdma-action-created-by': s.runId }
    })
    expect(desiredAgentPoolProperties(settings())).not.toHaveProperty('availabilityZones')
  })
})

describe('the benchmark plan', () => {
  it('with GPUDirect: every GPU of the node, bandwidth from GPU memory, latency from host memory', () => {
    const s = settings()
    const gpus = benchmarkGpus(s)
    expect(gpus).toBe(8)
    const plan = benchmarkPlan(s)
    const [bw, lat] = plan.tests
    expect(bw.gpuMemory).toBe(true)
    expect(bw.serverArgs.filter(a => a.startsWith('--use_cuda='))).toHaveLength(1)
    expect(bw.clientArgs).toEqual([...bw.serverArgs, '<server-pod-ip>'])
    expect(lat.gpuMemory).toBe(false)
    expect(lat.serverArgs.some(a => a.startsWith('--use_cuda'))).toBe(false)
    expect(plan.gpuPlacement).toMatch(/^one container per node side holds the node's 8 GPUs/)
    expect(plan.resources['nvidia.com/gpu']).toBe('8')
  })

  it('without GPUDirect: no GPU, host memory, and the input that says so', () => {
    const s = settings({ 'benchmark-gpudirect': 'false' })
    expect(benchmarkGpus(s)).toBe(0)
    const plan = benchmarkPlan(s)
    expect(plan.tests[0].gpuMemory).toBe(false)
    expect(plan.tests[0].serverArgs.some(a => a.startsWith('--use_cuda'))).toBe(false)
    expect(plan.gpuPlacement).toBe('benchmark-gpudirect is false: host memory')
    expect(plan.resources).not.toHaveProperty('nvidia.com/gpu')
  })

  it('the pass rule of each scope, with the configured ratio', () => {
    expect(benchmarkPlan(settings({ 'min-bandwidth-ratio': '0.85' })).passRule).toBe(
      'two RDMA nodes, every IB device pair ≥ 0.85 × its link rate'
    )
    expect(
      benchmarkPlan(settings({ 'benchmark-scope': 'fleet', 'min-bandwidth-ratio': '0.85' })).passRule
    ).toBe(
      'every node measured against two others in parallel rounds of disjoint pairs; each device ≥ 0.85 × its link rate; outliers far below the fleet median named'
    )
  })
})
