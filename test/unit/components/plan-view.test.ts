// What the plan shows of each component, as users read it: the Azure components' ARM calls (method,
// path, API version, when each is sent — only reads for the credentials, a given kubeconfig's check
// included), the REST body of a created cluster, titles and readiness conditions, which components
// are skipped and why; and the two cluster-level health rules not covered elsewhere — the Network
// Operator Deployment available, the NodeFeatureRule's first label within a grace period (else the
// pool has no IB device).
import { describe, expect, it } from '@jest/globals'
import {
  buildStack,
  COMPONENTS,
  components,
  isArmComponent,
  kubeComponents,
  nodeDependencies,
  onPoolNodes,
  type KubeComponent
} from '../../../src/components/index.js'
import { evaluateHealth } from '../../../src/health/evaluate.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { INPUTS } from '../../../src/settings/input-definitions.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { rdmaNode } from '../../support/nodes.js'
import { SYSTEM_POOL_PROFILE } from '../../support/aks-create.js'

/** An input's default (the pinned versions move with the releases). */
const byDefault = (name: string) => INPUTS.find(i => i.name === name)!.default!

const SUB = '/subscriptions/00000000-0000-0000-0000-000000000000'
const CLUSTER = `${SUB}/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks1`
const FEATURE = `${SUB}/providers/Microsoft.Features/providers/Microsoft.ContainerService/features/AKSInfinibandSupport`

const settings = (over: Record<string, string> = {}) =>
  readSettings(
    reader({ ...VALID_APPLY, 'create-cluster': 'true', location: 'eastus', ...over }),
    { GITHUB_RUN_ID: '9', GITHUB_RUN_ATTEMPT: '2', GITHUB_JOB: 'rdma' },
    { nonce: '0123456789ab' }
  ).settings
const plan = (over: Record<string, string> = {}) =>
  Object.fromEntries(buildStack(settings(over)).map(c => [c.name, c]))

describe('the Azure components in the plan', () => {
  it('the feature: read it, register it when needed, then re-register the provider and poll it', () => {
    const c = plan()['infiniband-feature']
    expect(c.title).toBe('Feature Microsoft.ContainerService/AKSInfinibandSupport')
    expect(c.azure).toEqual([
      { method: 'GET', path: FEATURE, apiVersion: '2021-07-01', when: 'always' },
      {
        method: 'POST',
        path: `${FEATURE}/register`,
        apiVersion: '2021-07-01',
        when: 'state is not Registered'
      },
      {
        method: 'POST',
        path: `${SUB}/providers/Microsoft.ContainerService/register`,
        apiVersion: '2025-04-01',
        when: 'after the feature turned Registered'
      },
      {
        method: 'GET',
        path: `${SUB}/providers/Microsoft.ContainerService`,
        apiVersion: '2025-04-01',
        when: 'poll until registrationState is Registered'
      }
    ])
    expect(c.readiness).toEqual({
      summary: 'feature state Registered (case-insensitive), then the provider Registered',
      conditions: [
        'features/AKSInfinibandSupport properties.state == Registered',
        'providers/Microsoft.ContainerService registrationState == Registered'
      ]
    })
    expect(plan({ 'register-feature': 'false' })['infiniband-feature']).toMatchObject({
      enabled: false,
      skipReason: 'register-feature is false'
    })
  })

  it('the cluster: created when absent with this run’s tags and a small system pool; skipped unless asked', () => {
    const c = plan().cluster
    expect(c.title).toBe('AKS cluster aks1')
    expect(c.azure).toEqual([
      { method: 'GET', path: CLUSTER, apiVersion: '2026-06-01', when: 'always' },
      {
        method: 'PUT',
        path: CLUSTER,
        apiVersion: '2026-06-01',
        when: 'cluster absent',
        body: {
          location: 'eastus',
          tags: { 'aks-rdma-action-managed': 'true', 'aks-rdma-action-created-by': '9-2/rdma/0123456789ab' },
          identity: { type: 'SystemAssigned' },
          properties: {
            dnsPrefix: 'aks1',
            agentPoolProfiles: [SYSTEM_POOL_PROFILE]
          }
        }
      }
    ])
    expect(c.readiness).toEqual({
      summary: 'provisioningState Succeeded',
      conditions: ['managedCluster provisioningState == Succeeded']
    })
    expect(plan({ 'create-cluster': 'false' }).cluster).toMatchObject({
      enabled: false,
      skipReason: 'create-cluster is false: the existing cluster is used'
    })
  })

  it('the node pool: read it, create it with If-None-Match: * only when absent', () => {
    const c = plan({ 'node-count': '4' })['node-pool']
    expect(c.title).toBe('Node pool rdmapool (4 × Standard_ND96isr_H100_v5)')
    expect(c.azure!.map(({ body: _b, ...op }) => op)).toEqual([
      { method: 'GET', path: `${CLUSTER}/agentPools/rdmapool`, apiVersion: '2026-06-01', when: 'always' },
      {
        method: 'PUT',
        path: `${CLUSTER}/agentPools/rdmapool`,
        apiVersion: '2026-06-01',
        headers: { 'If-None-Match': '*' },
        when: 'pool absent (present: immutable fields vmSize, osType, osSKU, gpuProfile.driver compared; no write)'
      }
    ])
    expect(c.azure![1].body).toMatchObject({
      properties: {
        vmSize: 'Standard_ND96isr_H100_v5',
        count: 4,
        gpuProfile: { driver: 'None' },
        mode: 'User'
      }
    })
    expect(c.readiness).toEqual({
      summary: 'provisioningState Succeeded and 4 nodes labelled kubernetes.azure.com/agentpool=rdmapool',
      conditions: [
        'agentPool provisioningState == Succeeded',
        'nodes -l kubernetes.azure.com/agentpool=rdmapool registered'
      ]
    })
    expect(c.departsFromGuide).toBe(
      'gpuProfile.driver: None instead of the retired --skip-gpu-driver-install tag (rejected since August 2025).'
    )
  })

  it('the credentials: one POST that only reads, user or admin', () => {
    const user = plan().credentials
    expect(user.title).toBe('Cluster credentials (user)')
    expect(user.azure).toEqual([
      {
        method: 'POST',
        path: `${CLUSTER}/listClusterUserCredential`,
        apiVersion: '2026-06-01',
        when: 'always (a read: no change to the cluster)'
      }
    ])
    expect(user.readiness).toEqual({
      summary: 'the API server answers /version with the kubeconfig',
      conditions: ['GET /version succeeds']
    })
    const admin = plan({ 'admin-credentials': 'true' }).credentials
    expect(admin.title).toBe('Cluster credentials (admin)')
    expect(admin.azure![0].path).toBe(`${CLUSTER}/listClusterAdminCredential`)
  })

  it('with a kubeconfig given: no credentials listed, the cluster read first to check its server', () => {
    const kubeconfig = [
      'apiVersion: v1',
      'clusters: [{name: c, cluster: {server: "https://aks1-dns.hcp.eastus.azmk8s.io:443"}}]',
      'contexts: [{name: gpu, context: {cluster: c}}]',
      'current-context: gpu'
    ].join('\n')
    const given = plan({ 'create-cluster': 'false', kubeconfig, 'kube-context': 'gpu' }).credentials
    expect(given.title).toBe('Cluster credentials (the given kubeconfig, context gpu)')
    expect(given.azure).toEqual([
      {
        method: 'GET',
        path: CLUSTER,
        apiVersion: '2026-06-01',
        when: "first, before any write (a read: the kubeconfig's server must be the cluster's fqdn, privateFQDN or azurePortalFQDN)"
      }
    ])
  })
})

describe('the cluster components in the plan', () => {
  it('titles, and where each is ready', () => {
    const p = plan()
    expect(kubeComponents().map(c => [c.name, p[c.name].title, onPoolNodes(c), nodeDependencies(c)])).toEqual(
      [
        ['network-operator', `NVIDIA Network Operator ${byDefault('network-operator-version')}`, false, []],
        ['node-feature-rule', 'NodeFeatureRule nfd-network-rule (InfiniBand VFs 101c/101e)', true, []],
        [
          'nic-cluster-policy',
          `NicClusterPolicy nic-cluster-policy (DOCA driver ${byDefault('doca-driver-version')})`,
          true,
          ['node-feature-rule']
        ],
        [
          'ib-node-config',
          'DaemonSet kube-system/ib-node-config (memlock, IB modules)',
          true,
          ['nic-cluster-policy']
        ],
        [
          'rdma-device-plugin',
          `RDMA shared device plugin (rdma/hca_shared_devices_a, max ${byDefault('rdma-hca-max')})`,
          true,
          ['ib-node-config']
        ],
        [
          'gpu-operator',
          `NVIDIA GPU Operator ${byDefault('gpu-operator-version')}`,
          true,
          ['nic-cluster-policy']
        ]
      ]
    )
    expect(
      components()
        .filter(isArmComponent)
        .map(c => [c.name, onPoolNodes(c), nodeDependencies(c)])
    ).toEqual([
      ['infiniband-feature', false, []],
      ['cluster', false, []],
      ['node-pool', false, []],
      ['credentials', false, []]
    ])
    expect(p['network-operator'].readiness).toEqual({
      summary: 'release deployed and the operator Deployment available',
      conditions: [
        'deployment/network-operator -n network-operator Available, every replica of the current spec'
      ]
    })
    expect(p['node-feature-rule'].readiness).toEqual({
      summary: 'every node of pool rdmapool labelled feature.node.kubernetes.io/pci-15b3.present=true',
      conditions: [
        'every RDMA node: labelled feature.node.kubernetes.io/pci-15b3.present=true',
        "a first node labelled within the grace period (none: no Mellanox IB device on the pool's nodes)"
      ]
    })
    expect(p['network-operator'].departsFromGuide).toMatch(
      /^helm upgrade --install \(re-runnable\) with a pinned version/
    )
    expect(p['node-feature-rule'].departsFromGuide).toMatch(
      /^The guide sets nfd\.deployNodeFeatureRules=false and adds no rule/
    )
    expect(p['network-operator'].helm!.repo).toEqual({
      name: 'nvidia',
      url: 'https://helm.ngc.nvidia.com/nvidia'
    })
  })
})

describe('cluster-level health', () => {
  const s = settings()
  const evaluate = (
    name: 'network-operator' | 'node-feature-rule',
    snap: Record<string, KubeObject[]>,
    elapsedMs = 0,
    graceMs = 60_000
  ) =>
    evaluateHealth((COMPONENTS[name] as KubeComponent).health(s), snap, {
      settings: s,
      elapsedMs,
      nfdGraceMs: graceMs
    })

  const deployment = (
    name: string,
    o: {
      replicas?: number
      available?: number
      updated?: number
      generation?: number
      observed?: number
      condition?: string
      label?: string
    } = {}
  ): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: 'network-operator',
      generation: o.generation ?? 1,
      ...(o.label ? { labels: { 'app.kubernetes.io/name': o.label } } : {})
    },
    spec: o.replicas === undefined ? {} : { replicas: o.replicas },
    status: {
      observedGeneration: o.observed ?? 1,
      availableReplicas: o.available ?? 1,
      updatedReplicas: o.updated ?? 1,
      conditions: [{ type: 'Available', status: o.condition ?? 'True' }]
    }
  })

  it('the Network Operator: its Deployment (by name, or by its name label) available, observed and updated', () => {
    expect(evaluate('network-operator', { deployments: [deployment('network-operator')] })).toMatchObject({
      done: true,
      message: 'operator deployment/network-operator available (1/1 available)'
    })
    expect(
      evaluate('network-operator', {
        deployments: [deployment('nfd-master'), deployment('no-op', { label: 'network-operator' })]
      })
    ).toMatchObject({
      done: true,
      message: 'operator deployment/no-op available (1/1 available)'
    })
    expect(
      evaluate('network-operator', {
        deployments: [
          deployment('no-op', { label: 'network-operator', available: 0 }),
          deployment('network-operator')
        ]
      }).done
    ).toBe(true)
    for (const [d, message] of [
      [
        deployment('network-operator', { condition: 'False' }),
        'operator deployment/network-operator not yet available (1/1 available, condition Available not True)'
      ],
      [
        deployment('network-operator', { replicas: 2 }),
        'operator deployment/network-operator not yet available (1/2 available)'
      ],
      [
        deployment('network-operator', { replicas: 2, available: 2 }),
        'operator deployment/network-operator not yet available (2/2 available)'
      ],
      [
        deployment('network-operator', { generation: 2 }),
        'operator deployment/network-operator not yet available (1/1 available)'
      ]
    ] as const)
      expect(evaluate('network-operator', { deployments: [d] })).toMatchObject({ done: false, message })
    expect(
      evaluate('network-operator', {
        deployments: [deployment('network-operator', { replicas: 0, available: 0, updated: 0 })]
      }).done
    ).toBe(true)
    expect(evaluate('network-operator', { deployments: [deployment('nfd-master')] })).toMatchObject({
      done: false,
      message: 'waiting for deployment/network-operator',
      problems: ['deployment/network-operator -n network-operator not found']
    })
  })

  it('the NodeFeatureRule: every node labelled; none labelled after the grace period fails, naming the pool', () => {
    const node = (name: string, labelled: boolean): KubeObject => {
      const n = rdmaNode(name)
      if (!labelled) delete n.metadata.labels!['feature.node.kubernetes.io/pci-15b3.present']
      return n
    }
    expect(evaluate('node-feature-rule', { nodes: [node('n1', true), node('n2', true)] })).toMatchObject({
      done: true,
      message: 'labelled pci-15b3.present=true on 2/2 nodes'
    })
    const some = evaluate('node-feature-rule', { nodes: [node('n1', true), node('n2', false)] }, 999_999)
    expect(some.done).toBe(false)
    expect(some.fail).toBeUndefined()
    expect(some.nodes[1]).toEqual({
      node: 'n2',
      ready: false,
      detail: 'no feature.node.kubernetes.io/pci-15b3.present=true label'
    })
    const early = evaluate('node-feature-rule', { nodes: [node('n1', false)] }, 20_000)
    expect(early.fail).toBeUndefined()
    expect(early.recheckInMs).toBe(40_000)
    const late = evaluate('node-feature-rule', { nodes: [node('n1', false), node('n2', false)] }, 60_000)
    expect(late.fail).toBe(
      'no Mellanox IB device found on the pool\'s nodes: none of the 2 nodes of pool rdmapool was labelled feature.node.kubernetes.io/pci-15b3.present=true within 1m (the NodeFeatureRule matches PCI devices 15b3:101c/101e). Check that the VM size is RDMA-capable (an "r" size such as Standard_ND96isr_H100_v5) and that InfiniBand is enabled on the pool.'
    )
    const one = evaluate('node-feature-rule', { nodes: [node('n1', false)] }, 61_000)
    expect(one.fail).toMatch(
      /^no Mellanox IB device found on the pool's nodes: none of the 1 node of pool rdmapool /
    )
    expect(evaluate('node-feature-rule', { nodes: [] }, 999_999).fail).toBeUndefined()
  })
})
