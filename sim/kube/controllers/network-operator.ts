// The NVIDIA Network Operator (v26.1–v26.4 behaviour): reconciles only the NicClusterPolicy named
// `nic-cluster-policy` (others get state `ignore`). From spec.ofedDriver it renders one
// `mofed-<os><ver>-<kernelHash>-ds` DaemonSet per (OS, version, kernel) among nodes labelled
// pci-15b3.present that match the policy's nodeAffinity and whose NoSchedule/NoExecute taints the
// policy tolerates (spec.tolerations, plus nvidia.com/gpu and what the DaemonSet controller adds:
// the operator's own taint filter), keeps `network.nvidia.com/operator.mofed.wait` true until the
// node's OFED pod is Ready, renders the RDMA shared device plugin and DOCA telemetry DaemonSets when
// their sections are set, and reports status.state / appliedStates. From v26.4.0 its DaemonSets
// and pods also carry `ds-owner: NicClusterPolicy` (the name suffix is empty for the
// NicClusterPolicy; it is `-<name>` only for a NicNodePolicy, which the simulator does not serve).
// Its upgrade controller (driver-upgrade.ts) replaces the driver pods node by node when the
// DaemonSets' template changes, as ofedDriver.upgradePolicy says.
import { fnv32a, safeEncode } from '../hardware.js'
import type { KubeObject } from '../store.js'
import { ensureOperandServiceAccount } from './operand-accounts.js'
import {
  createIfAbsent,
  deleteIfPresent,
  isPodReady,
  ownerRef,
  setNodeLabels,
  TK,
  typeFromKey,
  type SimContext
} from './context.js'
import { AUTO_TOLERATIONS } from './daemonset.js'
import { NETWORK_OPERATOR_NS } from './nfd.js'
import { matchesRequiredAffinity, untoleratedTaint } from './placement.js'
import type { Reconciler } from './queue.js'
import { DriverUpgrade, type UpgradeScope } from './driver-upgrade.js'

/** Pods the drain leaves alone (Mellanox/network-operator v26.4.0 pkg/consts OfedDriverSkipDrainLabelSelector). */
const OFED_SKIP_DRAIN = 'nvidia.com/ofed-driver-upgrade-drain.skip!=true'

export const NCP_NAME = 'nic-cluster-policy'
export const MOFED_WAIT_LABEL = 'network.nvidia.com/operator.mofed.wait'
export const PCI_15B3_LABEL = 'feature.node.kubernetes.io/pci-15b3.present'
const OS_ID = 'feature.node.kubernetes.io/system-os_release.ID'
const OS_VER = 'feature.node.kubernetes.io/system-os_release.VERSION_ID'
const KERNEL = 'feature.node.kubernetes.io/kernel-version.full'

/** The kernel hash in MOFED DaemonSet names: FNV-32a of the kernel string, safe-encoded. */
export function kernelHash(kernel: string): string {
  return safeEncode(String(fnv32a(kernel)))
}

interface AppliedState {
  name: string
  state: 'ready' | 'notReady' | 'ignore' | 'error'
  message?: string
}

function dsReady(ds: KubeObject | undefined): boolean {
  const s = ds?.status
  if (!s || s.observedGeneration !== ds?.metadata.generation) return false
  const desired = s.desiredNumberScheduled ?? 0
  return desired > 0 && s.numberAvailable === desired && s.updatedNumberScheduled === desired
}

function imagePath(c: { repository?: string; image?: string; version?: string }): string {
  return `${c.repository}/${c.image}:${c.version}`
}

const GPU_TOLERATION = { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }
const NETWORK_UNAVAILABLE = {
  key: 'node.kubernetes.io/network-unavailable',
  operator: 'Exists',
  effect: 'NoSchedule'
}

/** `v26.4.0` → [26, 4, 0]; compares release versions numerically. */
function atLeast(version: string | undefined, min: [number, number]): boolean {
  const m = /^v?(\d+)\.(\d+)/.exec(version ?? '')
  if (!m) return false
  const [maj, minor] = [Number(m[1]), Number(m[2])]
  return maj > min[0] || (maj === min[0] && minor >= min[1])
}

export class NetworkOperator implements Reconciler {
  readonly name = 'network-operator'
  constructor(private readonly ctx: SimContext) {
    // Its upgrade controller: the OFED driver replaced node by node (ofedDriver.upgradePolicy).
    new DriverUpgrade(ctx, 'ofed', () => this.upgradeScope())
    ctx.cache.onEvent((e, tk) => {
      const ns = e.object.metadata.namespace
      if (tk === TK.nicClusterPolicies || tk === TK.nodes) ctx.queue.add(this, '*')
      else if ((tk === TK.daemonsets || tk === TK.deployments) && ns === NETWORK_OPERATOR_NS)
        ctx.queue.add(this, '*')
      else if (
        tk === TK.pods &&
        ns === NETWORK_OPERATOR_NS &&
        e.object.metadata.labels?.['nvidia.com/ofed-driver'] !== undefined
      )
        ctx.queue.add(this, '*')
    })
    ctx.queue.add(this, '*')
  }

  active(): boolean {
    return (
      !!typeFromKey(this.ctx, TK.nicClusterPolicies) &&
      this.ctx.cache.list(TK.deployments, NETWORK_OPERATOR_NS).length > 0
    )
  }

  /** The operator's release, from its Deployment's image tag (`…/network-operator:v26.4.0`). */
  private version(): string | undefined {
    for (const d of this.ctx.cache.list(TK.deployments, NETWORK_OPERATOR_NS))
      for (const c of d.spec?.template?.spec?.containers ?? []) {
        const m = /\/network-operator:(v?\d[^@\s]*)/.exec(String(c.image ?? ''))
        if (m) return m[1]
      }
    return undefined
  }

  /** Labels v26.4.0 adds to the DaemonSets it renders for the NicClusterPolicy (and their pods). */
  private ownerLabel(): Record<string, string> {
    return atLeast(this.version(), [26, 4]) ? { 'ds-owner': 'NicClusterPolicy' } : {}
  }

  /** What the upgrade controller works on: the policy's driver DaemonSets and its upgradePolicy. */
  private upgradeScope(): UpgradeScope | undefined {
    if (!this.active()) return undefined
    const ncp = this.ctx.cache.get(TK.nicClusterPolicies, undefined, NCP_NAME)
    if (!ncp) return undefined
    return {
      policy: ncp.spec?.ofedDriver?.upgradePolicy,
      daemonSets: this.ctx.cache
        .list(TK.daemonsets, NETWORK_OPERATOR_NS)
        .filter(
          d =>
            d.metadata.labels?.['nvidia.com/ofed-driver'] !== undefined &&
            (d.metadata.ownerReferences ?? []).some(r => r.uid === ncp.metadata.uid)
        ),
      skipDrainSelector: OFED_SKIP_DRAIN
    }
  }

  reconcile(): void {
    if (!this.active()) return
    const ncpT = typeFromKey(this.ctx, TK.nicClusterPolicies)!
    for (const ncp of this.ctx.cache.list(TK.nicClusterPolicies)) {
      if (ncp.metadata.name !== NCP_NAME) {
        this.writeStatus(ncp, {
          state: 'ignore',
          reason: `Unsupported NicClusterPolicy instance name ${ncp.metadata.name}, only ${NCP_NAME} is supported`
        })
        continue
      }
      const applied: AppliedState[] = []
      applied.push(this.ofed(ncp))
      if (ncp.spec?.rdmaSharedDevicePlugin) applied.push(this.rdmaSharedDp(ncp))
      else this.removeDs('rdma-shared-dp-ds', ncp)
      if (ncp.spec?.docaTelemetryService) applied.push(this.telemetry(ncp))
      else this.removeDs('doca-telemetry-service', ncp)
      const states = applied.filter(a => a.state !== 'ignore')
      const ready = states.every(a => a.state === 'ready')
      const notReady = states.filter(a => a.state !== 'ready').map(a => a.name)
      this.writeStatus(ncp, {
        state: ready ? 'ready' : 'notReady',
        ...(ready ? {} : { reason: `Not all components are ready: ${notReady.join(', ')}` }),
        appliedStates: applied
      })
    }
    void ncpT
  }

  private writeStatus(ncp: KubeObject, status: Record<string, unknown>): void {
    this.ctx.store.mutate(
      typeFromKey(this.ctx, TK.nicClusterPolicies)!,
      undefined,
      ncp.metadata.name,
      o => {
        o.status = status
      },
      { subresource: 'status' }
    )
  }

  /** Nodes with Mellanox hardware as NFD labelled them, filtered by the policy's nodeAffinity. */
  private mellanoxNodes(ncp: KubeObject): KubeObject[] {
    return this.ctx.cache
      .list(TK.nodes)
      .filter(n => n.metadata.labels?.[PCI_15B3_LABEL] === 'true')
      .filter(
        n => !ncp.spec?.nodeAffinity || matchesRequiredAffinity({ nodeAffinity: ncp.spec.nodeAffinity }, n)
      )
  }

  /**
   * The operator's taint filter: nodes whose NoSchedule/NoExecute taints the driver pods would not
   * tolerate (the policy's tolerations, nvidia.com/gpu and the DaemonSet controller's own) get no
   * driver DaemonSet at all.
   */
  private toleratedBy(ncp: KubeObject, n: KubeObject): boolean {
    const tolerations = [
      ...(ncp.spec?.tolerations ?? []),
      GPU_TOLERATION,
      ...AUTO_TOLERATIONS,
      NETWORK_UNAVAILABLE
    ]
    return !untoleratedTaint({ tolerations }, n)
  }

  private ensure(t: ReturnType<typeof typeFromKey>, obj: KubeObject): void {
    if (!t) return
    const cur = this.ctx.cache.get(
      t.group ? `${t.plural}.${t.group}` : t.plural,
      obj.metadata.namespace,
      obj.metadata.name
    )
    if (!cur) {
      createIfAbsent(this.ctx, t, obj)
      return
    }
    const same =
      JSON.stringify(cur.spec ?? null) === JSON.stringify(obj.spec ?? null) &&
      JSON.stringify(cur.data ?? null) === JSON.stringify(obj.data ?? null) &&
      JSON.stringify(cur.metadata.labels ?? {}) === JSON.stringify(obj.metadata.labels ?? {})
    if (same) return
    this.ctx.store.mutate(t, obj.metadata.namespace, obj.metadata.name, o => {
      o.metadata.labels = obj.metadata.labels
      if (obj.spec !== undefined) o.spec = obj.spec
      if (obj.data !== undefined) o.data = obj.data
    })
  }

  private removeDs(name: string, ncp: KubeObject): void {
    const ds = this.ctx.cache.get(TK.daemonsets, NETWORK_OPERATOR_NS, name)
    if (ds && (ds.metadata.ownerReferences ?? []).some(r => r.uid === ncp.metadata.uid))
      deleteIfPresent(this.ctx, typeFromKey(this.ctx, TK.daemonsets)!, NETWORK_OPERATOR_NS, name)
  }

  private ofed(ncp: KubeObject): AppliedState {
    const dsT = typeFromKey(this.ctx, TK.daemonsets)!
    const spec = ncp.spec?.ofedDriver
    const labelled = this.mellanoxNodes(ncp)
    const nodes = labelled.filter(n => this.toleratedBy(ncp, n))
    const existing = this.ctx.cache
      .list(TK.daemonsets, NETWORK_OPERATOR_NS)
      .filter(
        d =>
          d.metadata.labels?.['nvidia.com/ofed-driver'] !== undefined &&
          (d.metadata.ownerReferences ?? []).some(r => r.uid === ncp.metadata.uid)
      )
    if (!spec) {
      for (const d of existing) deleteIfPresent(this.ctx, dsT, NETWORK_OPERATOR_NS, d.metadata.name)
      for (const n of nodes) setNodeLabels(this.ctx, n.metadata.name, { [MOFED_WAIT_LABEL]: 'false' })
      return { name: 'state-OFED', state: 'ignore' }
    }
    const groups = new Map<
      string,
      { os: string; ver: string; kernel: string; arch: string; nodes: KubeObject[] }
    >()
    for (const n of nodes) {
      const l = n.metadata.labels ?? {}
      const os = l[OS_ID]
      const ver = l[OS_VER]
      const kernel = l[KERNEL]
      if (!os || !ver || !kernel) continue
      // As upstream's GetNodePools: keyed by OS, version and kernel only; the first node's CPU
      // architecture names the driver tag of the whole group (pools of two architectures share it).
      const k = `${os}|${ver}|${kernel}`
      const g = groups.get(k) ?? { os, ver, kernel, arch: l['kubernetes.io/arch'] ?? 'amd64', nodes: [] }
      g.nodes.push(n)
      groups.set(k, g)
    }
    const wanted = new Set<string>()
    const dsByNode = new Map<string, string>()
    for (const g of groups.values()) {
      const app = `mofed-${g.os}${g.ver}-${kernelHash(g.kernel)}`
      const name = `${app}-ds`
      wanted.add(name)
      for (const n of g.nodes) dsByNode.set(n.metadata.name, app)
      ensureOperandServiceAccount(this.ctx, ncp, NETWORK_OPERATOR_NS, 'ofed-driver')
      this.ensure(dsT, this.mofedDs(ncp, spec, g, app, name))
    }
    for (const d of existing)
      if (!wanted.has(d.metadata.name)) deleteIfPresent(this.ctx, dsT, NETWORK_OPERATOR_NS, d.metadata.name)
    // mofed.wait: true until the node's OFED pod is Ready.
    const readyOn = new Set<string>()
    for (const p of this.ctx.cache.list(TK.pods, NETWORK_OPERATOR_NS)) {
      if (p.metadata.labels?.['nvidia.com/ofed-driver'] === undefined || !p.spec?.nodeName) continue
      if (isPodReady(p) && dsByNode.get(p.spec.nodeName) === p.metadata.labels?.app)
        readyOn.add(p.spec.nodeName)
    }
    for (const n of nodes)
      setNodeLabels(this.ctx, n.metadata.name, {
        [MOFED_WAIT_LABEL]: readyOn.has(n.metadata.name) ? 'false' : 'true'
      })
    if (groups.size === 0) {
      return {
        name: 'state-OFED',
        state: 'notReady',
        message:
          labelled.length > 0
            ? `no nodes with Mellanox NICs and matching tolerations found: ${labelled.length} node(s) labelled ${PCI_15B3_LABEL}=true carry taints the policy does not tolerate (spec.tolerations)`
            : `no Mellanox hardware is found: no node has the label ${PCI_15B3_LABEL}=true (is a NodeFeatureRule for PCI vendor 15b3 applied?)`
      }
    }
    const ready = [...wanted].every(n => dsReady(this.ctx.cache.get(TK.daemonsets, NETWORK_OPERATOR_NS, n)))
    return { name: 'state-OFED', state: ready ? 'ready' : 'notReady' }
  }

  private mofedDs(
    ncp: KubeObject,
    spec: any,
    g: { os: string; ver: string; kernel: string; arch: string },
    app: string,
    name: string
  ): KubeObject {
    const probe = (
      p: any,
      cmd: string,
      defaults: { initialDelaySeconds: number; periodSeconds: number; failureThreshold: number }
    ) => ({
      exec: { command: ['sh', '-c', cmd] },
      initialDelaySeconds: p?.initialDelaySeconds ?? defaults.initialDelaySeconds,
      failureThreshold: p?.failureThreshold ?? defaults.failureThreshold,
      successThreshold: 1,
      timeoutSeconds: p?.timeoutSeconds ?? 10,
      periodSeconds: p?.periodSeconds ?? defaults.periodSeconds
    })
    const affinity = ncp.spec?.nodeAffinity
      ? { nodeAffinity: ncp.spec.nodeAffinity }
      : {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              {
                labelSelector: { matchExpressions: [{ key: 'nvidia.com/ofed-driver', operator: 'Exists' }] },
                topologyKey: 'kubernetes.io/hostname'
              }
            ]
          }
        }
    const hostPath = (n: string, path: string, type?: string) => ({
      name: n,
      hostPath: { path, ...(type ? { type } : {}) }
    })
    return {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: {
        name,
        namespace: NETWORK_OPERATOR_NS,
        labels: { app, 'nvidia.com/ofed-driver': '', 'mofed-ds-format-version': '1', ...this.ownerLabel() },
        ownerReferences: [ownerRef(ncp)]
      },
      spec: {
        updateStrategy: { type: 'OnDelete' },
        selector: { matchLabels: { app } },
        template: {
          metadata: { labels: { app, kernel: g.kernel, 'nvidia.com/ofed-driver': '', ...this.ownerLabel() } },
          spec: {
            priorityClassName: 'system-node-critical',
            tolerations: [...(ncp.spec?.tolerations ?? []), GPU_TOLERATION],
            affinity,
            serviceAccountName: 'ofed-driver',
            hostNetwork: true,
            ...(spec.imagePullSecrets?.length
              ? { imagePullSecrets: spec.imagePullSecrets.map((n: string) => ({ name: n })) }
              : {}),
            containers: [
              {
                image: `${spec.repository}/${spec.image}:${spec.version}-${g.os}${g.ver}-${g.arch}`,
                imagePullPolicy: 'IfNotPresent',
                name: 'mofed-container',
                securityContext: { privileged: true, seLinuxOptions: { level: 's0' } },
                env: [...(spec.env ?? [])],
                volumeMounts: [
                  {
                    name: 'run-mlnx-ofed',
                    mountPath: '/run/mellanox/drivers',
                    mountPropagation: 'Bidirectional'
                  },
                  { name: 'etc-network', mountPath: '/etc/network' },
                  { name: 'host-etc', mountPath: '/host/etc' },
                  { name: 'host-usr', mountPath: '/host/usr' },
                  { name: 'host-udev', mountPath: '/host/lib/udev' },
                  { name: 'host-run-udev', mountPath: '/run/udev', readOnly: true },
                  { name: 'host-lib-modules', mountPath: '/host/lib/modules' },
                  { name: 'drivers-inventory', mountPath: '/mnt/drivers-inventory' },
                  { name: 'host-ib-core', mountPath: '/etc/modprobe.d/ib_core.conf' }
                ],
                startupProbe: probe(spec.startupProbe, 'ls /run/mellanox/drivers/.driver-ready', {
                  initialDelaySeconds: 10,
                  periodSeconds: 20,
                  // The operator fills an unset failureThreshold with 120 (state_ofed.go).
                  failureThreshold: 120
                }),
                livenessProbe: probe(spec.livenessProbe, 'lsmod | grep mlx5_core', {
                  initialDelaySeconds: 30,
                  periodSeconds: 30,
                  failureThreshold: 1
                }),
                readinessProbe: probe(spec.readinessProbe, 'lsmod | grep mlx5_core', {
                  initialDelaySeconds: 10,
                  periodSeconds: 30,
                  failureThreshold: 1
                })
              }
            ],
            terminationGracePeriodSeconds: spec.terminationGracePeriodSeconds ?? 300,
            volumes: [
              hostPath('run-mlnx-ofed', '/run/mellanox/drivers'),
              hostPath('etc-network', '/etc/network'),
              hostPath('host-etc', '/etc'),
              hostPath('host-usr', '/usr'),
              hostPath('host-udev', '/lib/udev'),
              hostPath('host-run-udev', '/run/udev'),
              hostPath('host-lib-modules', '/lib/modules'),
              hostPath('drivers-inventory', '/var/opt/mofed-container/inventory', 'DirectoryOrCreate'),
              hostPath('host-ib-core', '/etc/modprobe.d/ib_core.conf', 'FileOrCreate')
            ],
            nodeSelector: { [PCI_15B3_LABEL]: 'true', [OS_ID]: g.os, [OS_VER]: g.ver, [KERNEL]: g.kernel }
          }
        }
      }
    }
  }

  private rdmaSharedDp(ncp: KubeObject): AppliedState {
    const spec = ncp.spec.rdmaSharedDevicePlugin
    const cmT = typeFromKey(this.ctx, TK.configmaps)
    if (spec.config) {
      this.ensure(cmT, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'rdma-devices', namespace: NETWORK_OPERATOR_NS, ownerReferences: [ownerRef(ncp)] },
        data: { 'config.json': spec.config }
      })
    }
    const dsT = typeFromKey(this.ctx, TK.daemonsets)!
    this.ensure(dsT, {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: {
        name: 'rdma-shared-dp-ds',
        namespace: NETWORK_OPERATOR_NS,
        labels: { app: 'rdma-shared-dp', ...this.ownerLabel() },
        ownerReferences: [ownerRef(ncp)]
      },
      spec: {
        selector: { matchLabels: { app: 'rdma-shared-dp' } },
        template: {
          metadata: { labels: { app: 'rdma-shared-dp', ...this.ownerLabel() } },
          spec: {
            priorityClassName: 'system-node-critical',
            hostNetwork: true,
            tolerations: [...(ncp.spec?.tolerations ?? []), GPU_TOLERATION],
            containers: [
              {
                image: imagePath(spec),
                name: 'rdma-shared-dp',
                imagePullPolicy: 'IfNotPresent',
                securityContext: { privileged: true },
                volumeMounts: [
                  { name: 'device-plugin', mountPath: '/var/lib/kubelet/device-plugins', readOnly: false },
                  {
                    name: 'plugins-registry',
                    mountPath: '/var/lib/kubelet/plugins_registry',
                    readOnly: false
                  },
                  { name: 'config', mountPath: '/k8s-rdma-shared-dev-plugin' },
                  { name: 'devs', mountPath: '/dev/' }
                ]
              }
            ],
            volumes: [
              { name: 'device-plugin', hostPath: { path: '/var/lib/kubelet/device-plugins' } },
              { name: 'plugins-registry', hostPath: { path: '/var/lib/kubelet/plugins_registry' } },
              {
                name: 'config',
                configMap: { name: 'rdma-devices', items: [{ key: 'config.json', path: 'config.json' }] }
              },
              { name: 'devs', hostPath: { path: '/dev/' } }
            ],
            nodeSelector: { [PCI_15B3_LABEL]: 'true', [MOFED_WAIT_LABEL]: 'false' },
            ...(ncp.spec?.nodeAffinity ? { affinity: { nodeAffinity: ncp.spec.nodeAffinity } } : {})
          }
        }
      }
    })
    const ready = dsReady(this.ctx.cache.get(TK.daemonsets, NETWORK_OPERATOR_NS, 'rdma-shared-dp-ds'))
    return { name: 'state-RDMA-device-plugin', state: ready ? 'ready' : 'notReady' }
  }

  private telemetry(ncp: KubeObject): AppliedState {
    const spec = ncp.spec.docaTelemetryService
    const dsT = typeFromKey(this.ctx, TK.daemonsets)!
    this.ensure(dsT, {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: {
        name: 'doca-telemetry-service',
        namespace: NETWORK_OPERATOR_NS,
        labels: { app: 'doca-telemetry-service' },
        ownerReferences: [ownerRef(ncp)]
      },
      spec: {
        selector: { matchLabels: { app: 'doca-telemetry-service' } },
        template: {
          metadata: { labels: { app: 'doca-telemetry-service' } },
          spec: {
            hostNetwork: true,
            tolerations: [...(ncp.spec?.tolerations ?? []), GPU_TOLERATION],
            containers: [
              {
                name: 'doca-telemetry-service',
                image: imagePath(spec),
                imagePullPolicy: 'IfNotPresent',
                securityContext: { privileged: true }
              }
            ],
            nodeSelector: { [PCI_15B3_LABEL]: 'true' },
            ...(ncp.spec?.nodeAffinity ? { affinity: { nodeAffinity: ncp.spec.nodeAffinity } } : {})
          }
        }
      }
    })
    const ready = dsReady(this.ctx.cache.get(TK.daemonsets, NETWORK_OPERATOR_NS, 'doca-telemetry-service'))
    return { name: 'state-doca-telemetry-service', state: ready ? 'ready' : 'notReady' }
  }
}
