// The components' desired state against the reference manifests it is built from (the upstream
// copies in test/fixtures/upstream/): equal to them except for the departures
// docs/guide-departures.md documents, each listed here. The NicClusterPolicy and the NodeFeatureRule are Azure's
// (aks-rdma-infiniband), the device plugin and ib-node-config the guide's with the action's
// changes, the chart values Azure's with useHostMofed pinned false and NFD on in the Network Operator.
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseAllDocuments } from 'yaml'
import { COMPONENTS, type KubeComponent } from '../../../src/components/index.js'
import { RESTART_MARKER } from '../../../src/components/ib-node-config.js'
import { ofedStartupBudgetSeconds } from '../../../src/components/nic-cluster-policy.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { GPU_TOLERATION } from '../../../src/model/tolerations.js'
import {
  BUSYBOX_IMAGE,
  RDMA_DEVICE_PLUGIN_COMMAND,
  RDMA_DEVICE_PLUGIN_IMAGE
} from '../../../src/settings/images.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

/** Node affinity on the default pool, as every pool-selecting object carries it. */
const POOL_AFFINITY = {
  nodeAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: [
        {
          matchExpressions: [{ key: 'kubernetes.azure.com/agentpool', operator: 'In', values: ['rdmapool'] }]
        }
      ]
    }
  }
}

const UPSTREAM = path.resolve(process.cwd(), 'test/fixtures/upstream')

/** The documents of an upstream file, with the guide's pool placeholder filled in. */
function upstream(file: string, pool = 'rdmapool'): any[] {
  const text = readFileSync(path.join(UPSTREAM, file), 'utf8').replaceAll('<GPU_NODE_POOL_NAME>', pool)
  return parseAllDocuments(text)
    .map(d => d.toJSON())
    .filter(Boolean)
}

function settings(over: Record<string, string> = {}): Settings {
  return readSettings(reader({ ...VALID_APPLY, 'node-pool': 'rdmapool', ...over })).settings
}

const desired = (name: keyof typeof COMPONENTS, s = settings()) =>
  (COMPONENTS[name] as KubeComponent).desired(s)
const manifest = (name: keyof typeof COMPONENTS, kind: string, s = settings()) =>
  structuredClone(desired(name, s).manifests!.find(m => m.kind === kind)) as KubeObject

describe("Azure's manifests, as they are", () => {
  it('the NicClusterPolicy is aks-rdma-infiniband’s base: confined to the pool, the driver version the input', () => {
    const [base] = upstream('azure-aks-rdma-infiniband__configs_nicclusterpolicy_base_nic.yaml')
    const want = (version: string) => {
      const w = structuredClone(base)
      // Only the RDMA pool's nodes, not any node another pool labels pci-15b3.present.
      w.spec.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions.push(
        {
          key: 'kubernetes.azure.com/agentpool',
          operator: 'In',
          values: ['rdmapool']
        }
      )
      w.spec.ofedDriver.version = version
      // An OFED upgrade drains only the pods labelled as RDMA workloads (NVIDIA: the podSelector
      // "must be configured"; without it every pod on the node is evicted).
      w.spec.ofedDriver.upgradePolicy.drain = {
        enable: true,
        force: true,
        podSelector: 'aks-rdma-action/rdma-workload=true',
        deleteEmptyDir: true,
        timeoutSeconds: 300
      }
      // The telemetry service of the DOCA release the pinned driver belongs to.
      w.spec.docaTelemetryService.version = '1.25.5-doca3.4.0-host'
      return w
    }
    const s = settings()
    expect(manifest('nic-cluster-policy', 'NicClusterPolicy', s)).toEqual(want(s.stack.docaDriverVersion))
    const pinned = settings({ 'doca-driver-version': 'doca3.1.0-25.07-0.9.7.0-0' })
    expect(manifest('nic-cluster-policy', 'NicClusterPolicy', pinned)).toEqual(
      want('doca3.1.0-25.07-0.9.7.0-0')
    )
    // ofed-drain-pod-selector: another selector, or `all` (no selector: every pod, as upstream).
    const drainOf = (over: Record<string, string>) =>
      manifest('nic-cluster-policy', 'NicClusterPolicy', settings(over)).spec.ofedDriver.upgradePolicy.drain
    expect(drainOf({ 'ofed-drain-pod-selector': 'team in (ml,infer)' }).podSelector).toBe(
      'team in (ml,infer)'
    )
    expect(drainOf({ 'ofed-drain-pod-selector': 'all' })).toEqual(base.spec.ofedDriver.upgradePolicy.drain)
    expect(() => settings({ 'ofed-drain-pod-selector': 'a=b=c' })).toThrow(/ofed-drain-pod-selector/)
    expect(desired('nic-cluster-policy', pinned).title).toBe(
      'NicClusterPolicy nic-cluster-policy (DOCA driver doca3.1.0-25.07-0.9.7.0-0)'
    )
  })

  it('the NodeFeatureRule is the one aks-rdma-infiniband applies (devices 101c, 101e)', () => {
    const [rule] = upstream('azure-aks-rdma-infiniband__tests_setup-infra_network-operator-nfd.yaml')
    expect(manifest('node-feature-rule', 'NodeFeatureRule')).toEqual(rule)
  })

  it('the GPU Operator values are Azure’s without the Prometheus ServiceMonitor, useHostMofed pinned false', () => {
    const [values] = upstream('azure-aks-rdma-infiniband__configs_values_gpu-operator_values.yaml')
    const { dcgmExporter: _monitor, ...rest } = values
    const helm = desired('gpu-operator').helm!
    expect(helm.values).toEqual({
      ...rest,
      driver: { rdma: { enabled: true, useHostMofed: false } },
      // Its node agents tolerate the GPU taint AKS GPU pools may carry.
      daemonsets: { tolerations: [GPU_TOLERATION] }
    })
    expect(desired('gpu-operator', settings({ 'use-host-mofed': 'true' })).helm!.values.driver).toEqual({
      rdma: { enabled: true, useHostMofed: true }
    })
  })

  it('the Network Operator values are Azure’s, with its NFD on (the NodeFeatureRule needs it)', () => {
    const [values] = upstream('azure-aks-rdma-infiniband__configs_values_network-operator_values.yaml')
    const helm = desired('network-operator').helm!
    expect(helm.values).toEqual({
      ...values,
      nfd: { ...values.nfd, enabled: true },
      // NFD's workers only on the managed pools (here the one), tolerating their GPU taint.
      'node-feature-discovery': {
        worker: {
          affinity: POOL_AFFINITY,
          tolerations: [GPU_TOLERATION]
        }
      }
    })
  })

  it.each([
    ['gpu-operator', 'gpuOperatorVersion'],
    ['network-operator', 'networkOperatorVersion']
  ] as const)(
    'the %s release is nvidia’s chart of that name, in a namespace of that name, at the pinned version',
    (name, version) => {
      expect(desired(name).helm).toMatchObject({
        release: name,
        chart: `nvidia/${name}`,
        namespace: name,
        version: settings().stack[version]
      })
    }
  )

  it('both operator namespaces are created privileged (pod security)', () => {
    for (const [name, ns] of [
      ['network-operator', 'network-operator'],
      ['gpu-operator', 'gpu-operator']
    ] as const)
      expect(manifest(name, 'Namespace')).toEqual({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name: ns,
          labels: { 'pod-security.kubernetes.io/enforce': 'privileged' }
        }
      })
  })
})

describe("the guide's manifests, with the action's departures", () => {
  const [guideConfig, guideDs] = upstream('dynamo-guide-infiniband-on-azure__rdma-shared-device-plugin.yaml')
  const [guideIb] = upstream('dynamo-guide-infiniband-on-azure__ib-node-config.yaml')

  it('the device plugin config adds linkTypes infiniband (and spells out the rdma prefix)', () => {
    const cm = manifest('rdma-device-plugin', 'ConfigMap')
    const config = JSON.parse(guideConfig.data['config.json'])
    const [resource] = config.configList
    expect(JSON.parse(cm.data['config.json'])).toEqual({
      ...config,
      configList: [
        {
          ...resource,
          resourcePrefix: 'rdma',
          selectors: { ...resource.selectors, linkTypes: ['infiniband'] }
        }
      ]
    })
    expect({ ...cm, data: guideConfig.data }).toEqual({
      ...guideConfig,
      metadata: { ...guideConfig.metadata, labels: { 'aks-rdma-action/managed': 'true' } }
    })
  })

  it('the device plugin config follows the resource name and the maximum', () => {
    const cm = manifest(
      'rdma-device-plugin',
      'ConfigMap',
      settings({ 'rdma-resource-name': 'shared_ib', 'rdma-hca-max': '63' })
    )
    const [r] = JSON.parse(cm.data['config.json']).configList
    expect([r.resourceName, r.rdmaHcaMax]).toEqual(['shared_ib', 63])
    expect(
      desired('rdma-device-plugin', settings({ 'rdma-resource-name': 'shared_ib', 'rdma-hca-max': '63' }))
        .title
    ).toBe('RDMA shared device plugin (rdma/shared_ib, max 63)')
  })

  it('the device plugin DaemonSet is the guide’s, scheduled after OFED, waiting for ib-node-config, rolled on config changes', () => {
    const ds = manifest('rdma-device-plugin', 'DaemonSet')
    const spec = ds.spec.template.spec
    const want = structuredClone(guideDs)
    want.metadata.labels = { name: 'rdma-shared-dp-ds', 'aks-rdma-action/managed': 'true' }
    want.spec.template.metadata.annotations = {
      'aks-rdma-action/config-sha256': expect.stringMatching(/^[0-9a-f]{16}$/)
    }
    // The managed pools by node affinity (a nodeSelector names one), the OFED driver ready by selector.
    want.spec.template.spec.nodeSelector = { 'network.nvidia.com/operator.mofed.wait': 'false' }
    want.spec.template.spec.affinity = POOL_AFFINITY
    want.spec.template.spec.priorityClassName = 'system-node-critical'
    // It speaks only to the kubelet: no service account token in the privileged pod.
    want.spec.template.spec.automountServiceAccountToken = false
    want.spec.template.spec.tolerations = [GPU_TOLERATION]
    want.spec.template.spec.containers[0].image = RDMA_DEVICE_PLUGIN_IMAGE
    want.spec.template.spec.containers[0].command = RDMA_DEVICE_PLUGIN_COMMAND
    want.spec.template.spec.initContainers = [
      {
        name: 'wait-for-ib-node-config',
        image: BUSYBOX_IMAGE,
        command: ['sh', '-c', expect.stringContaining('/host/etc/modules-load.d/ib-umad.conf')],
        volumeMounts: [{ name: 'ib-node-config-done', mountPath: '/host/etc/modules-load.d', readOnly: true }]
      }
    ]
    want.spec.template.spec.volumes = [
      ...want.spec.template.spec.volumes,
      { name: 'ib-node-config-done', hostPath: { path: '/etc/modules-load.d', type: 'DirectoryOrCreate' } }
    ]
    expect(ds).toEqual(want)
    // Bounded: 120 checks 5 s apart, then a clear failure naming what is missing.
    expect(spec.initContainers[0].command[2]).toBe(
      [
        'for i in $(seq 1 120); do',
        '  if [ -f /host/etc/modules-load.d/ib-umad.conf ]; then echo "ib-node-config has completed on this node"; exit 0; fi',
        '  if [ "$i" = "1" ]; then echo "waiting for ib-node-config to complete on this node (/etc/modules-load.d/ib-umad.conf)"; fi',
        '  sleep 5',
        'done',
        'echo "ib-node-config has not completed on this node after 600s (no /etc/modules-load.d/ib-umad.conf); check the ib-node-config pod on this node"',
        'exit 1',
        ''
      ].join('\n')
    )
  })

  it('a changed plugin config changes the pod template (so the plugin restarts with it); the image is the input', () => {
    const a = manifest('rdma-device-plugin', 'DaemonSet')
    const b = manifest('rdma-device-plugin', 'DaemonSet', settings({ 'rdma-hca-max': '63' }))
    const c = manifest('rdma-device-plugin', 'DaemonSet', settings({ 'rdma-hca-max': '1000' }))
    const sha = (d: KubeObject) => d.spec.template.metadata.annotations['aks-rdma-action/config-sha256']
    expect(sha(a)).not.toBe(sha(b))
    expect(sha(a)).toBe(sha(c))
    const img = manifest(
      'rdma-device-plugin',
      'DaemonSet',
      settings({ 'rdma-device-plugin-image': 'ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.5.2' })
    )
    expect(img.spec.template.spec.containers[0].image).toBe(
      'ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.5.2'
    )
  })

  it('ib-node-config waits for the OFED driver as long as the driver pod’s startup probe allows, not 600 s', () => {
    const waitFor = (s: Settings): string =>
      manifest('ib-node-config', 'DaemonSet', s).spec.template.spec.initContainers[0].command[2]
    // The action's policy: 10 s + failureThreshold (the operator's 120) × 20 s = 2410 s, in 10 s rounds.
    const policy = manifest('nic-cluster-policy', 'NicClusterPolicy')
    expect(policy.spec.ofedDriver.startupProbe).toMatchObject({ initialDelaySeconds: 10, periodSeconds: 20 })
    expect(ofedStartupBudgetSeconds(settings())).toBe(2410)
    expect(waitFor(settings())).toContain('for i in $(seq 1 241); do')
    expect(waitFor(settings())).toContain('after 2410s')
    // A policy file's own probe sets the bound.
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'ncp-')), 'ncp.yaml')
    writeFileSync(
      file,
      'ofedDriver:\n  repository: r\n  image: i\n  version: v\n  startupProbe: {initialDelaySeconds: 30, periodSeconds: 30, failureThreshold: 10}\n'
    )
    const own = settings({ 'nic-cluster-policy': file })
    expect(ofedStartupBudgetSeconds(own)).toBe(330)
    expect(waitFor(own)).toContain('for i in $(seq 1 33); do')
  })

  it('ib-node-config is the guide’s, updated OnDelete, after OFED, its modules-load file written last', () => {
    const ds = manifest('ib-node-config', 'DaemonSet')
    const spec = ds.spec.template.spec
    const guide = guideIb.spec.template.spec
    // Around the setup: labels, OnDelete, priority, the pool's GPU taint, and a wait for the OFED driver.
    expect(ds.metadata.labels).toEqual({ app: 'ib-node-config', 'aks-rdma-action/managed': 'true' })
    expect(ds.spec.updateStrategy).toEqual({ type: 'OnDelete' })
    expect(ds.spec.selector).toEqual(guideIb.spec.selector)
    expect({ ...spec, initContainers: undefined, containers: undefined, volumes: undefined }).toEqual({
      ...guide,
      initContainers: undefined,
      containers: undefined,
      // The managed pools by node affinity instead of the guide's one-pool nodeSelector.
      nodeSelector: undefined,
      affinity: POOL_AFFINITY,
      priorityClassName: 'system-node-critical',
      // Its scripts never call the API server: no service account token in the privileged pod.
      automountServiceAccountToken: false,
      tolerations: [GPU_TOLERATION]
    })
    expect(spec.containers).toEqual([{ ...guide.containers[0], image: BUSYBOX_IMAGE }])
    expect(spec.volumes).toEqual([
      { name: 'ofed-driver-state', hostPath: { path: '/run/mellanox/drivers', type: 'DirectoryOrCreate' } }
    ])
    expect(spec.initContainers.map((c: { name: string }) => c.name)).toEqual([
      'wait-for-ofed-driver',
      'ib-setup'
    ])
    expect(spec.initContainers[0]).toMatchObject({
      image: BUSYBOX_IMAGE,
      volumeMounts: [{ name: 'ofed-driver-state', mountPath: '/host/run/mellanox/drivers', readOnly: true }]
    })
    expect(spec.initContainers[0].command[2]).toContain('[ -f /host/run/mellanox/drivers/.driver-ready ]')
    // The driver's path mounted as the GPU Operator's own driver DaemonSet mounts it: with
    // HostToContainer, so what the DOCA driver mounts under it after this pod started is seen.
    const gpuDriver = upstream('gpu-operator-v26.7.0-asset-driver-daemonset.yaml')[0].spec.template.spec
    const theirs = (gpuDriver.volumes as any[]).find(v => v.hostPath?.path === '/run/mellanox/drivers')
    const theirMounts = [...gpuDriver.initContainers, ...gpuDriver.containers].flatMap((c: any) =>
      (c.volumeMounts ?? []).filter((m: any) => m.name === theirs.name)
    )
    expect(theirMounts.length).toBeGreaterThan(0)
    for (const m of theirMounts) expect(m.mountPropagation).toBe('HostToContainer')
    expect(spec.initContainers[0].volumeMounts[0].mountPropagation).toBe(theirMounts[0].mountPropagation)
    // The setup: the guide's container (privileged, on the host through nsenter), whose script writes
    // the modules-load file last, after memlock and the restarts: the device plugin waits for it.
    const setup = spec.initContainers[1]
    expect({ ...setup, command: undefined }).toEqual({
      ...guide.initContainers[0],
      command: undefined,
      image: BUSYBOX_IMAGE
    })
    const lines = setup.command[2]
      .split('\n')
      .map((l: string) => l.trim())
      .filter((l: string) => l !== '')
    expect(lines.slice(-2)).toEqual([
      `nsenter -t 1 -m -u -i -n -- sh -c 'printf "ib_umad\\nrdma_ucm\\n" > /etc/modules-load.d/ib-umad.conf'`,
      'echo "=== Setup Complete ==="'
    ])
    for (const step of [
      'LimitMEMLOCK=infinity',
      'for svc in containerd kubelet; do',
      'systemctl restart $svc',
      'modprobe ib_umad',
      // at most one restart per boot: the marker in /run is checked, then written, before it
      `nsenter -t 1 -m -u -i -n -- test -f ${RESTART_MARKER}; then`,
      `: > ${RESTART_MARKER}'`
    ])
      expect({ step, found: lines.slice(0, -2).some((l: string) => l.includes(step)) }).toEqual({
        step,
        found: true
      })
  })
})
