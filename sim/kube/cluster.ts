// The simulated AKS cluster as the Azure half sees it (ClusterBackend): agent pools become Node
// objects with AKS's names, labels, taints, capacity and nodeInfo (Ubuntu 22.04 / 24.04 by the
// AKS osSku rule), joining over `nodes.joinSpread` of simulated time; pools shrink, grow and go
// away with their pods; kubeconfigs come in the three shapes AKS hands out (token, client
// certificate, AAD exec/kubelogin).
import { stringify } from 'yaml'
import type { ClusterBackend, SimClock, SimPool } from '../contracts.js'
import { durationOf, type Scenario } from '../scenario.js'
import { issueClientCert, type WorldTls } from '../tls.js'
import {
  buildNodeHardware,
  fnv32a,
  isRdmaSize,
  type HardwareRegistry,
  type NodeHardware
} from './hardware.js'
import type { KubeObject, ObjectStore } from './store.js'
import { StoreError } from './store.js'
import { parseTaint } from './controllers/placement.js'
import type { Timers } from './controllers/context.js'

/** The AKS server application every AAD kubeconfig asks tokens for. */
export const AKS_SERVER_APP_ID = '6dae42f8-4368-4678-94ff-3960e28e3630'
/** The Azure CLI's public client id, which AKS writes into AAD kubeconfigs. */
export const AKS_CLIENT_APP_ID = '80faf920-1908-4b52-b5ef-a8e7bedfc67a'

interface PoolState {
  pool: SimPool
  /** instance index → node name (joined or pending). */
  instances: Map<number, string>
  pendingJoins: Map<number, () => void>
  nextIndex: number
}

export interface SimClusterOptions {
  store: ObjectStore
  scenario: Scenario
  clock: SimClock
  tls: WorldTls
  hardware: HardwareRegistry
  timers: Timers
  wallNow: () => number
}

function base36(n: number, width: number): string {
  return n.toString(36).padStart(width, '0')
}

function kubeletVersion(v: string): string {
  const parts = v.replace(/^v/, '').split('.')
  while (parts.length < 3) parts.push('0')
  return `v${parts.join('.')}`
}

export class SimCluster implements ClusterBackend {
  private readonly pools = new Map<string, PoolState>()
  private serverUrl = 'https://127.0.0.1:6443'
  private userToken = ''
  private adminToken = ''
  private rdmaSeq = 0
  private ordinalSeq = 0
  private adminCert: { certPem: string; keyPem: string } | undefined
  readonly clusterName: string
  readonly resourceGroup: string
  private readonly vmssId: string

  constructor(private readonly o: SimClusterOptions) {
    const c = o.scenario.azure.cluster
    this.clusterName = c.name ?? 'aks-rdma'
    this.resourceGroup = c.resourceGroup ?? 'rg-aks-rdma'
    this.vmssId = String(10_000_000 + (fnv32a(`${this.resourceGroup}/${this.clusterName}`) % 90_000_000))
  }

  apiServerUrl(): string {
    return this.serverUrl
  }

  /** Called once the API server listens. */
  setServer(url: string, tokens: { user: string; admin: string }): void {
    this.serverUrl = url
    this.userToken = tokens.user
    this.adminToken = tokens.admin
  }

  private nodeType() {
    const t = this.o.store.type('', 'nodes')
    if (!t) throw new Error('simulated cluster: the nodes resource is not registered')
    return t
  }

  nodeNameOf(pool: string, index: number): string {
    return `aks-${pool}-${this.vmssId}-vmss${base36(index, 6)}`
  }

  addPool(pool: SimPool): void {
    const existing = this.pools.get(pool.name)
    if (existing) {
      existing.pool = { ...pool }
      this.setPoolCount(pool.name, pool.count)
      return
    }
    const st: PoolState = { pool: { ...pool }, instances: new Map(), pendingJoins: new Map(), nextIndex: 0 }
    this.pools.set(pool.name, st)
    this.grow(st, pool.count)
  }

  removePool(name: string): void {
    const st = this.pools.get(name)
    if (!st) return
    this.shrink(st, 0)
    this.pools.delete(name)
  }

  setPoolCount(name: string, count: number): void {
    const st = this.pools.get(name)
    if (!st) return
    st.pool.count = count
    const have = st.instances.size
    if (count > have) this.grow(st, count - have)
    else if (count < have) this.shrink(st, count)
  }

  /** Pools and their node names (joined or still joining). */
  poolNodes(name: string): string[] {
    return [...(this.pools.get(name)?.instances.values() ?? [])]
  }

  private grow(st: PoolState, n: number): void {
    const spreadMs = durationOf(this.o.scenario.nodes.joinSpread, 0)
    for (let k = 0; k < n; k++) {
      const index = st.nextIndex++
      const name = this.nodeNameOf(st.pool.name, index)
      st.instances.set(index, name)
      const rdmaIndex = st.pool.mode === 'User' && isRdmaSize(st.pool.vmSize) ? this.rdmaSeq++ : -1
      const ordinal = this.ordinalSeq++
      const join = () => {
        st.pendingJoins.delete(index)
        this.join(st.pool, name, index, rdmaIndex, ordinal)
      }
      const at = spreadMs > 0 && n > 1 ? (spreadMs * k) / (n - 1) : spreadMs > 0 ? spreadMs : 0
      if (at <= 0) join()
      else st.pendingJoins.set(index, this.o.timers.after(at, join))
    }
  }

  private shrink(st: PoolState, keep: number): void {
    const indexes = [...st.instances.keys()].sort((a, b) => b - a)
    for (const index of indexes.slice(0, Math.max(0, indexes.length - keep))) {
      const name = st.instances.get(index)!
      st.instances.delete(index)
      const pending = st.pendingJoins.get(index)
      if (pending) {
        pending()
        st.pendingJoins.delete(index)
      }
      this.deleteNode(name)
    }
  }

  private deleteNode(name: string): void {
    const store = this.o.store
    const podT = store.type('', 'pods')
    if (podT) {
      for (const p of store.list(podT, { fieldSelector: `spec.nodeName=${name}` }).items) {
        try {
          // The pod garbage collector force-deletes the pods of a node that is gone.
          store.delete(podT, p.metadata.namespace, p.metadata.name, { gracePeriodSeconds: 0 })
        } catch (e) {
          if (!(e instanceof StoreError)) throw e
        }
      }
    }
    try {
      store.delete(this.nodeType(), undefined, name)
    } catch (e) {
      if (!(e instanceof StoreError)) throw e
    }
    this.o.hardware.remove(name)
  }

  private join(pool: SimPool, name: string, index: number, rdmaIndex: number, ordinal: number): void {
    const hw = buildNodeHardware({
      scenario: this.o.scenario,
      nodeName: name,
      pool: pool.name,
      vmSize: pool.vmSize,
      osSku: pool.osSku,
      kubernetesVersion: pool.kubernetesVersion,
      rdmaIndex,
      ordinal
    })
    hw.timeline.joinedAt = this.o.clock.now()
    this.o.hardware.add(hw)
    try {
      this.o.store.create(this.nodeType(), this.nodeObject(pool, hw, index))
    } catch (e) {
      if (!(e instanceof StoreError && e.code === 409)) throw e
    }
  }

  private nodeObject(pool: SimPool, hw: NodeHardware, index: number): KubeObject {
    const spec = hw.spec
    const now = new Date(this.o.wallNow()).toISOString().replace(/\.\d+Z$/, 'Z')
    const location = this.o.scenario.azure.cluster.location
    const osSkuLabel =
      pool.osSku === 'Ubuntu' ? (hw.osVersion === '24.04' ? 'Ubuntu2404' : 'Ubuntu2204') : pool.osSku
    const labels: Record<string, string> = {
      agentpool: pool.name,
      'beta.kubernetes.io/arch': spec.arch,
      'beta.kubernetes.io/instance-type': pool.vmSize,
      'beta.kubernetes.io/os': 'linux',
      'failure-domain.beta.kubernetes.io/region': location,
      'failure-domain.beta.kubernetes.io/zone': '0',
      'kubernetes.azure.com/agentpool': pool.name,
      'kubernetes.azure.com/cluster': `MC_${this.resourceGroup}_${this.clusterName}_${location}`,
      'kubernetes.azure.com/mode': pool.mode.toLowerCase(),
      'kubernetes.azure.com/node-image-version': `AKS${osSkuLabel}-${spec.arch === 'arm64' ? 'arm64' : 'gen2'}containerd-202507.21.0`,
      'kubernetes.azure.com/os-sku': osSkuLabel,
      'kubernetes.azure.com/role': 'agent',
      'kubernetes.io/arch': spec.arch,
      'kubernetes.io/hostname': hw.nodeName,
      'kubernetes.io/os': 'linux',
      'kubernetes.io/role': 'agent',
      'node-role.kubernetes.io/agent': '',
      'node.kubernetes.io/instance-type': pool.vmSize,
      'topology.kubernetes.io/region': location,
      'topology.kubernetes.io/zone': '0',
      ...(pool.labels ?? {})
    }
    // (NFD's labels — OS, kernel, pci-<vendor>.present — come from an NFD worker running on the node.)
    if (spec.gpus > 0)
      labels['kubernetes.azure.com/accelerator'] = spec.gpuVendor === '1002' ? 'amd' : 'nvidia'
    const cpuMilli = spec.vcpus * 1000
    const memKi = spec.memoryGiB * 1024 * 1024
    const reservedCpu = Math.min(cpuMilli - 100, 60 + spec.vcpus * 10)
    const reservedMemKi = Math.round(memKi * 0.03) + 100 * 1024
    const taints = (pool.taints ?? []).map(parseTaint)
    const sub = this.o.scenario.azure.subscriptionId
    return {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: hw.nodeName,
        labels,
        annotations: {
          'node.alpha.kubernetes.io/ttl': '0',
          'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
          'csi.volume.kubernetes.io/nodeid': JSON.stringify({
            'disk.csi.azure.com': hw.nodeName,
            'file.csi.azure.com': hw.nodeName
          })
        }
      },
      spec: {
        podCIDR: `10.244.${hw.ordinal % 256}.0/24`,
        podCIDRs: [`10.244.${hw.ordinal % 256}.0/24`],
        providerID: `azure:///subscriptions/${sub}/resourceGroups/mc_${this.resourceGroup}_${this.clusterName}_${location}/providers/Microsoft.Compute/virtualMachineScaleSets/aks-${pool.name}-${this.vmssId}-vmss/virtualMachines/${index}`,
        ...(taints.length ? { taints } : {})
      },
      status: {
        capacity: {
          cpu: String(spec.vcpus),
          'ephemeral-storage': '259966896Ki',
          'hugepages-1Gi': '0',
          'hugepages-2Mi': '0',
          memory: `${memKi}Ki`,
          pods: '110'
        },
        allocatable: {
          cpu: `${cpuMilli - reservedCpu}m`,
          'ephemeral-storage': '239585490957',
          'hugepages-1Gi': '0',
          'hugepages-2Mi': '0',
          memory: `${memKi - reservedMemKi}Ki`,
          pods: '110'
        },
        conditions: [
          {
            type: 'MemoryPressure',
            status: 'False',
            lastHeartbeatTime: now,
            lastTransitionTime: now,
            reason: 'KubeletHasSufficientMemory',
            message: 'kubelet has sufficient memory available'
          },
          {
            type: 'DiskPressure',
            status: 'False',
            lastHeartbeatTime: now,
            lastTransitionTime: now,
            reason: 'KubeletHasNoDiskPressure',
            message: 'kubelet has no disk pressure'
          },
          {
            type: 'PIDPressure',
            status: 'False',
            lastHeartbeatTime: now,
            lastTransitionTime: now,
            reason: 'KubeletHasSufficientPID',
            message: 'kubelet has sufficient PID available'
          },
          {
            type: 'Ready',
            status: 'True',
            lastHeartbeatTime: now,
            lastTransitionTime: now,
            reason: 'KubeletReady',
            message: 'kubelet is posting ready status'
          }
        ],
        addresses: [
          { type: 'InternalIP', address: hw.nodeIp },
          { type: 'Hostname', address: hw.nodeName }
        ],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: {
          architecture: spec.arch,
          bootID: `${fnv32a(hw.nodeName + 'boot')
            .toString(16)
            .padStart(8, '0')}-0000-4000-8000-000000000000`,
          containerRuntimeVersion: 'containerd://1.7.27-1',
          kernelVersion: hw.kernel,
          kubeProxyVersion: '',
          kubeletVersion: kubeletVersion(pool.kubernetesVersion),
          machineID: fnv32a(hw.nodeName).toString(16).padStart(32, '0'),
          operatingSystem: 'linux',
          osImage: hw.osImage,
          systemUUID: `${fnv32a(hw.nodeName + 'uuid')
            .toString(16)
            .padStart(8, '0')}-0000-4000-8000-000000000000`
        }
      }
    }
  }

  kubeconfig(kind: 'user' | 'admin' | 'aad'): string {
    const name = this.clusterName
    const caData = Buffer.from(this.o.tls.caPem).toString('base64')
    let userName: string
    let user: Record<string, unknown>
    if (kind === 'admin') {
      this.adminCert = this.adminCert ?? issueClientCert(this.o.tls, 'masterclient', ['system:masters'])
      userName = `clusterAdmin_${this.resourceGroup}_${name}`
      user = {
        'client-certificate-data': Buffer.from(this.adminCert.certPem).toString('base64'),
        'client-key-data': Buffer.from(this.adminCert.keyPem).toString('base64'),
        token: this.adminToken
      }
    } else if (kind === 'aad') {
      userName = `clusterUser_${this.resourceGroup}_${name}`
      user = {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1beta1',
          args: [
            'get-token',
            '--environment',
            'AzurePublicCloud',
            '--server-id',
            AKS_SERVER_APP_ID,
            '--client-id',
            AKS_CLIENT_APP_ID,
            '--tenant-id',
            this.o.scenario.azure.tenantId,
            '--login',
            'devicecode'
          ],
          command: 'kubelogin',
          env: null,
          installHint:
            '\nkubelogin is not installed which is required to connect to AAD enabled cluster.\n\nTo learn more, please go to https://aka.ms/aks/kubelogin\n',
          provideClusterInfo: false
        }
      }
    } else {
      userName = `clusterUser_${this.resourceGroup}_${name}`
      user = { token: this.userToken }
    }
    return stringify({
      apiVersion: 'v1',
      clusters: [{ cluster: { 'certificate-authority-data': caData, server: this.serverUrl }, name }],
      contexts: [
        { context: { cluster: name, user: userName }, name: kind === 'admin' ? `${name}-admin` : name }
      ],
      'current-context': kind === 'admin' ? `${name}-admin` : name,
      kind: 'Config',
      preferences: {},
      users: [{ name: userName, user }]
    })
  }
}
