// Component 8: the ib-node-config DaemonSet (guide step 3): on each RDMA node, once, loads the
// IB userspace modules and sets an unlimited memlock for containerd and kubelet (which it
// restarts). Re-creating its pods restarts them again, so it is only applied when it differs
// (updateStrategy OnDelete). Ready when, on every RDMA node, its pod's init container ib-setup
// completed and the pod is Ready, and the DaemonSet is rolled out; in pipelined rollout it runs on
// a node once the OFED driver is ready there.
import type { Health } from '../health/types.js'
import { met, missing } from '../health/types.js'
import { managedLike, noPod, podsOf, rolledOut } from '../health/rules.js'
import {
  containerStatus,
  describeContainer,
  describePod,
  hasContainer,
  initCompleted,
  isPodReady
} from '../kube/pods.js'
import type { KubeObject } from '../kube/types.js'
import { LABELS, type KubeManifest } from '../model/types.js'
import type { Settings } from '../settings/settings.js'
import { noDriftExtras, noHints, type KubeComponent } from './types.js'

/** The init container that does the node's setup. */
export const IB_SETUP = 'ib-setup'

export const IB_NODE_CONFIG_IMAGE = 'busybox:1.36'

/**
 * The host file ib-node-config writes LAST (after memlock, the restarts of containerd and kubelet
 * and their checks): the modules to load at boot. Its presence on a node means the node's setup is
 * complete, so the RDMA device plugin's init container waits for it (the per-node order
 * ib-node-config → device plugin, which needs no action running). Nodes set up by the guide's own
 * DaemonSet have it too.
 */
export const IB_NODE_CONFIG_DONE_FILE = '/etc/modules-load.d/ib-umad.conf'

// The guide's script, with the modules-load file moved to the end (see IB_NODE_CONFIG_DONE_FILE).
const SETUP_SCRIPT = `echo "=== IB Node Configuration ==="
nsenter -t 1 -m -u -i -n -- modprobe ib_umad
nsenter -t 1 -m -u -i -n -- modprobe rdma_ucm 2>/dev/null || true
nsenter -t 1 -m -u -i -n -- modprobe ib_ucm 2>/dev/null || true
nsenter -t 1 -m -u -i -n -- lsmod | grep ib_umad && echo "OK: ib_umad" || echo "FAIL: ib_umad"
nsenter -t 1 -m -u -i -n -- ls /dev/infiniband/rdma_cm && echo "OK: rdma_cm device" || echo "WARN: no rdma_cm device"
nsenter -t 1 -m -u -i -n -- sh -c 'printf "* - memlock unlimited\\nroot - memlock unlimited\\n" > /etc/security/limits.d/99-ib-memlock.conf'
nsenter -t 1 -m -u -i -n -- sh -c 'mkdir -p /etc/systemd/system/containerd.service.d && printf "[Service]\\nLimitMEMLOCK=infinity\\n" > /etc/systemd/system/containerd.service.d/memlock.conf'
nsenter -t 1 -m -u -i -n -- sh -c 'mkdir -p /etc/systemd/system/kubelet.service.d && printf "[Service]\\nLimitMEMLOCK=infinity\\n" > /etc/systemd/system/kubelet.service.d/memlock.conf'
nsenter -t 1 -m -u -i -n -- systemctl daemon-reload
nsenter -t 1 -m -u -i -n -- systemctl restart containerd
nsenter -t 1 -m -u -i -n -- systemctl restart kubelet
sleep 10
nsenter -t 1 -m -u -i -n -- systemctl is-active containerd && echo "OK: containerd active" || echo "FAIL: containerd"
nsenter -t 1 -m -u -i -n -- systemctl is-active kubelet && echo "OK: kubelet active" || echo "FAIL: kubelet"
nsenter -t 1 -m -u -i -n -- sh -c 'printf "ib_umad\\nrdma_ucm\\n" > ${IB_NODE_CONFIG_DONE_FILE}'
echo "=== Setup Complete ==="
`

export function ibNodeConfigDaemonSet(nodeSelector: Record<string, string>): KubeManifest {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: 'ib-node-config',
      namespace: 'kube-system',
      labels: { app: 'ib-node-config', [LABELS.managed]: 'true' }
    },
    spec: {
      selector: { matchLabels: { app: 'ib-node-config' } },
      // Never roll pods on its own: each new pod restarts kubelet and containerd on its node.
      updateStrategy: { type: 'OnDelete' },
      template: {
        metadata: { labels: { app: 'ib-node-config' } },
        spec: {
          hostPID: true,
          nodeSelector,
          tolerations: [{ operator: 'Exists' }],
          initContainers: [
            {
              name: IB_SETUP,
              image: IB_NODE_CONFIG_IMAGE,
              securityContext: { privileged: true },
              command: ['sh', '-c', SETUP_SCRIPT]
            }
          ],
          containers: [
            {
              name: 'keepalive',
              image: IB_NODE_CONFIG_IMAGE,
              command: ['sh', '-c', 'echo IB node config active; sleep infinity']
            }
          ]
        }
      }
    }
  }
}

/** The node selector: the pool, and in pipelined rollout also the node's OFED driver being ready. */
export function rdmaNodeSelector(s: Settings): Record<string, string> {
  return s.wait.rollout === 'pipelined'
    ? { [LABELS.agentPool]: s.nodePool.name, [LABELS.mofedWait]: 'false' }
    : { [LABELS.agentPool]: s.nodePool.name }
}

function health(s: Settings): Health {
  const ds = ibNodeConfigDaemonSet(rdmaNodeSelector(s))
  const pods = podsOf(ds)
  const setupDone = (onNode: KubeObject[]) => onNode.find(p => initCompleted(p, IB_SETUP))
  return {
    summary: `a Ready pod on every RDMA node whose init container ${IB_SETUP} completed`,
    sources: { pods, daemonsets: managedLike(ds) },
    perNode: {
      progress: `${IB_SETUP} completed`,
      rules: [
        {
          text: `init container ${IB_SETUP} of its pod (-n ${pods.namespace} -l ${pods.labelSelector}) terminated with exit code 0`,
          check: (_node, onNode) => {
            if (!onNode.length)
              return missing(`${noPod('ib-node-config', pods)}: memlock and IB modules not configured`)
            const done = setupDone(onNode)
            if (done) return met(`${IB_SETUP} completed (pod ${done.metadata.name})`)
            const p = onNode[0]
            const why = hasContainer(p, IB_SETUP, true)
              ? `init container ${IB_SETUP} ${describeContainer(containerStatus(p, IB_SETUP, true))}`
              : `pod has no ${IB_SETUP} init container`
            return missing(`pod ${p.metadata.name}: ${why}`)
          }
        },
        {
          text: 'that pod Ready',
          check: (_node, onNode) => {
            const p = setupDone(onNode)!
            return isPodReady(p) ? met() : missing(`pod ${p.metadata.name} not Ready (${describePod(p)})`)
          }
        }
      ]
    },
    cluster: [rolledOut(ds)],
    warnings: []
  }
}

/** What memlock errors in any pod's log mean (every failed step's diagnostic looks for them). */
export function memlockHint(): string {
  const ds = ibNodeConfigDaemonSet({})
  const pods = podsOf(ds)
  return (
    'memlock errors: ib-node-config did not complete on this node (memlock is not unlimited for containerd/kubelet). ' +
    `Check \`kubectl -n ${pods.namespace} logs -l ${pods.labelSelector} -c ${IB_SETUP}\` for FAIL: lines.`
  )
}

export const ibNodeConfig: KubeComponent = {
  name: 'ib-node-config',
  kind: 'manifests',
  skip: () => undefined,
  desired: s => ({
    title: 'DaemonSet kube-system/ib-node-config (memlock, IB modules)',
    manifests: [ibNodeConfigDaemonSet(rdmaNodeSelector(s))],
    departsFromGuide:
      'updateStrategy OnDelete and apply-only-when-changed, so a re-run never restarts kubelet and containerd again. ' +
      `Writes ${IB_NODE_CONFIG_DONE_FILE} last, after the restarts and their checks, so that file marks a node whose setup is complete ` +
      '(the RDMA device plugin waits for it). In pipelined rollout it runs on a node only once the OFED driver is ready there ' +
      `(nodeSelector ${LABELS.mofedWait}=false).`
  }),
  health,
  placement: { on: 'pool-nodes', after: ['nic-cluster-policy'] },
  driftExtras: noDriftExtras,
  // Memlock errors in any failing pod's log point here: memlockHint, which every step's diagnostic uses.
  hints: noHints,
  check: { name: 'ib-node-config', skip: () => undefined }
}
