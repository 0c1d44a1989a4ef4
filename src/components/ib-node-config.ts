// Component 8: the ib-node-config DaemonSet (guide step 3) that sets memlock and loads the IB modules.
// Docs: docs/guide-departures.md#ib-node-configs-script-always-succeeds and the sections after it.
import type { Health } from '../health/types.js'
import { met, missing, missingOrBlocked } from '../health/types.js'
import { managedLike, noPod, podsOf, rolledOut, toleratesPool } from '../health/rules.js'
import {
  containerStatus,
  describeContainer,
  describePod,
  hasContainer,
  initCompleted,
  isPodReady
} from '../kube/pods.js'
import type { KubeObject } from '../kube/types.js'
import { BUSYBOX_IMAGE } from '../settings/images.js'
import { nodeAgentTolerations, taintNote } from '../model/tolerations.js'
import { LABELS, type KubeManifest } from '../model/types.js'
import { poolAffinity } from '../model/stack-pools.js'
import type { Settings } from '../settings/settings.js'
import { ofedStartupBudgetSeconds } from './nic-cluster-policy.js'
import { IB_NODE_CONFIG_DONE_FILE, NODE_CRITICAL } from './shared.js'
import { noDriftExtras, noHints, type KubeComponent } from './types.js'

/** The init container that does the node's setup. */
export const IB_SETUP = 'ib-setup'
/** The init container before it, waiting for the OFED driver on the node. */
export const WAIT_FOR_OFED_DRIVER = 'wait-for-ofed-driver'

const IB_NODE_CONFIG_IMAGE = BUSYBOX_IMAGE

const DS_NAME = 'ib-node-config'
const DS_NAMESPACE = 'kube-system'

/** The file the OFED driver container writes once the driver is loaded (in /run: gone after a reboot). */
export const OFED_READY_FILE = '/run/mellanox/drivers/.driver-ready'
const OFED_READY_DIR = OFED_READY_FILE.slice(0, OFED_READY_FILE.lastIndexOf('/'))
const OFED_READY_MOUNT = `/host${OFED_READY_DIR}`
const OFED_WAIT_INTERVAL_SECONDS = 10

/**
 * The wait for the OFED driver on a node, bounded by the driver's own startup budget (its startup
 * probe: ofedStartupBudgetSeconds), so a driver still compiling is never given up on while its pod may
 * yet start; past it the init container exits 1 and kubelet retries it.
 */
export function waitForOfedScript(seconds: number): string {
  const rounds = Math.ceil(seconds / OFED_WAIT_INTERVAL_SECONDS)
  return `for i in $(seq 1 ${rounds}); do
  if [ -f /host${OFED_READY_FILE} ]; then echo "the OFED driver is ready on this node"; exit 0; fi
  if [ "$i" = "1" ]; then echo "waiting for the OFED driver on this node (${OFED_READY_FILE}), at most ${rounds * OFED_WAIT_INTERVAL_SECONDS}s"; fi
  sleep ${OFED_WAIT_INTERVAL_SECONDS}
done
echo "the OFED driver is not ready on this node after ${rounds * OFED_WAIT_INTERVAL_SECONDS}s, the driver pod's startup budget (no ${OFED_READY_FILE}); check the OFED driver pod on this node (-n network-operator -l ${LABELS.ofedDriverPod})"
exit 1
`
}

const HOST = 'nsenter -t 1 -m -u -i -n --'
const MEMLOCK_UNLIMITED = '"^Max locked memory *unlimited *unlimited"'

/**
 * The host file ib-node-config writes just before it first restarts containerd and kubelet. It is
 * in /run (a tmpfs the node empties at boot), so the services are restarted at most once per boot:
 * when the restart did not give them memlock unlimited (another drop-in or the unit sets
 * LimitMEMLOCK), the kubelet's re-runs of the init container fail with the reason and restart
 * nothing, instead of restarting both services on every back-off.
 */
export const RESTART_MARKER = '/run/ib-node-config/restarted'
const RESTART_MARKER_DIR = RESTART_MARKER.slice(0, RESTART_MARKER.lastIndexOf('/'))
const OVERRIDE_HINT =
  'Another systemd drop-in or the unit itself may set LimitMEMLOCK after ours: see systemctl show -p LimitMEMLOCK,DropInPaths $svc on the node.'

/**
 * The node's setup (the guide's, made to fail loudly and to restart only what needs it): set -e
 * stops at the first failing command; containerd and kubelet are restarted only when their running
 * process's memlock limit is not unlimited, so a re-run restarts nothing, and at most once per boot
 * (RESTART_MARKER), so a limit the restart does not fix fails the run instead; the result is verified
 * (both services active with memlock unlimited, ib_umad and rdma_ucm loaded) before the modules
 * file is written last (see IB_NODE_CONFIG_DONE_FILE).
 */
const SETUP_SCRIPT = `set -e
echo "=== IB Node Configuration ==="
${HOST} modprobe ib_umad
${HOST} modprobe rdma_ucm
if ${HOST} ls /dev/infiniband/rdma_cm; then echo "OK: rdma_cm device"; else echo "WARN: no rdma_cm device"; fi
${HOST} sh -c 'printf "* - memlock unlimited\\nroot - memlock unlimited\\n" > /etc/security/limits.d/99-ib-memlock.conf'
${HOST} sh -c 'mkdir -p /etc/systemd/system/containerd.service.d && printf "[Service]\\nLimitMEMLOCK=infinity\\n" > /etc/systemd/system/containerd.service.d/memlock.conf'
${HOST} sh -c 'mkdir -p /etc/systemd/system/kubelet.service.d && printf "[Service]\\nLimitMEMLOCK=infinity\\n" > /etc/systemd/system/kubelet.service.d/memlock.conf'
${HOST} systemctl daemon-reload
restarted=no
for svc in containerd kubelet; do
  pid=$(${HOST} systemctl show -p MainPID --value $svc)
  if ${HOST} cat /proc/$pid/limits | grep -q ${MEMLOCK_UNLIMITED}; then
    echo "OK: $svc already runs with memlock unlimited (pid $pid), not restarted"
  else
    if [ "$restarted" = "no" ]; then
      if ${HOST} test -f ${RESTART_MARKER}; then
        echo "FAIL: $svc (pid $pid) runs without memlock unlimited although ib-node-config already restarted containerd and kubelet once since this node booted (${RESTART_MARKER}); not restarting them again. ${OVERRIDE_HINT}"
        exit 1
      fi
      ${HOST} sh -c 'mkdir -p ${RESTART_MARKER_DIR} && : > ${RESTART_MARKER}'
    fi
    echo "restarting $svc (pid $pid) for memlock unlimited"
    ${HOST} systemctl restart $svc
    restarted=yes
  fi
done
if [ "$restarted" = "yes" ]; then sleep 10; fi
for svc in containerd kubelet; do
  if ${HOST} systemctl is-active $svc; then echo "OK: $svc active"; else echo "FAIL: $svc is not active"; exit 1; fi
  pid=$(${HOST} systemctl show -p MainPID --value $svc)
  if ${HOST} cat /proc/$pid/limits | grep -q ${MEMLOCK_UNLIMITED}; then
    echo "OK: $svc runs with memlock unlimited (pid $pid)"
  else
    echo "FAIL: $svc (pid $pid) runs without memlock unlimited after its restart. ${OVERRIDE_HINT}"; exit 1
  fi
done
for m in ib_umad rdma_ucm; do
  if ${HOST} lsmod | grep -q "^$m "; then echo "OK: $m loaded"; else echo "FAIL: $m not loaded"; exit 1; fi
done
${HOST} sh -c 'printf "ib_umad\\nrdma_ucm\\n" > ${IB_NODE_CONFIG_DONE_FILE}'
echo "=== Setup Complete ==="
`

export function ibNodeConfigDaemonSet(s: Settings): KubeManifest {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: DS_NAME,
      namespace: DS_NAMESPACE,
      labels: { app: DS_NAME, [LABELS.managed]: 'true' }
    },
    spec: {
      selector: { matchLabels: { app: DS_NAME } },
      // Never roll pods on its own: a new pod re-runs the setup on its node.
      updateStrategy: { type: 'OnDelete' },
      template: {
        metadata: { labels: { app: DS_NAME } },
        spec: {
          // Its scripts never call the API server: no service account token in a privileged pod.
          automountServiceAccountToken: false,
          hostPID: true,
          priorityClassName: NODE_CRITICAL,
          // Every managed pool (agentpool In [...]): a nodeSelector map can name only one.
          affinity: poolAffinity(s),
          tolerations: nodeAgentTolerations(s),
          initContainers: [
            {
              name: WAIT_FOR_OFED_DRIVER,
              image: IB_NODE_CONFIG_IMAGE,
              command: ['sh', '-c', waitForOfedScript(ofedStartupBudgetSeconds(s))],
              volumeMounts: [
                {
                  name: 'ofed-driver-state',
                  mountPath: OFED_READY_MOUNT,
                  readOnly: true,
                  // What the driver container mounts under this path after this pod started (its
                  // kernel headers at usr/src) is seen only with propagation, as the GPU Operator's
                  // driver DaemonSet mounts the same path.
                  mountPropagation: 'HostToContainer'
                }
              ]
            },
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
          ],
          volumes: [
            { name: 'ofed-driver-state', hostPath: { path: OFED_READY_DIR, type: 'DirectoryOrCreate' } }
          ]
        }
      }
    }
  }
}

/**
 * The device plugin's placement: the managed pools (node affinity), and in pipelined rollout also
 * the node's OFED driver being ready (a nodeSelector, as the Network Operator places its own plugin:
 * it restarts after a driver reload and finds the devices again).
 */
export function rdmaPlacement(s: Settings): {
  nodeSelector?: Record<string, string>
  affinity: Record<string, unknown>
} {
  return {
    ...(s.wait.rollout === 'pipelined' ? { nodeSelector: { [LABELS.mofedWait]: 'false' } } : {}),
    affinity: poolAffinity(s)
  }
}

/** The setup script a pod's ib-setup init container runs (its command's last word). */
function setupScriptOf(
  podSpec: { initContainers?: Array<{ name: string; command?: string[] }> } | undefined
) {
  const c = (podSpec?.initContainers ?? []).find(x => x.name === IB_SETUP)
  return c?.command?.[c.command.length - 1]
}

/**
 * Whether a pod ran the setup these settings want: a pod of an older DaemonSet (or the guide's) ran
 * another script; a pod whose script is not shown is taken as current.
 */
export function runsCurrentSetup(pod: KubeObject, s: Settings): boolean {
  const script = setupScriptOf(pod.spec)
  if (script === undefined) return true
  const template = (
    ibNodeConfigDaemonSet(s).spec as { template: { spec: Parameters<typeof setupScriptOf>[0] } }
  ).template
  return script === setupScriptOf(template.spec)
}

function health(s: Settings): Health {
  const ds = ibNodeConfigDaemonSet(s)
  const pods = podsOf(ds)
  const tolerations = nodeAgentTolerations(s)
  const setupDone = (onNode: KubeObject[]) =>
    onNode.find(p => initCompleted(p, IB_SETUP) && runsCurrentSetup(p, s))
  return {
    summary: `a Ready pod on every RDMA node whose init container ${IB_SETUP} completed`,
    sources: { pods, daemonsets: managedLike(ds) },
    perNode: {
      progress: `${IB_SETUP} completed`,
      rules: [
        {
          text: `init container ${IB_SETUP} of its pod (-n ${pods.namespace} -l ${pods.labelSelector}) terminated with exit code 0`,
          check: (node, onNode) => {
            if (!onNode.length)
              return missingOrBlocked(
                `${noPod('ib-node-config', pods)}: memlock and IB modules not configured`,
                taintNote(node, tolerations, 'ib-node-config (its DaemonSet tolerations)')
              )
            const done = setupDone(onNode)
            if (done) return met(`${IB_SETUP} completed (pod ${done.metadata.name})`)
            const p = onNode[0]
            const current = runsCurrentSetup(p, s)
            if (!current && initCompleted(p, IB_SETUP))
              return missing(`pod ${p.metadata.name} ran an earlier setup script: its replacement re-runs it`)
            // A pod of another script that fails says how it fails first: that is what a user must fix.
            const earlier = current ? '' : ' (it runs an earlier setup script: apply replaces the pod)'
            const waiting = containerStatus(p, WAIT_FOR_OFED_DRIVER, true)
            const why = !hasContainer(p, IB_SETUP, true)
              ? `pod has no ${IB_SETUP} init container`
              : hasContainer(p, WAIT_FOR_OFED_DRIVER, true) && waiting?.state?.terminated?.exitCode !== 0
                ? `waiting for the OFED driver on the node (init container ${WAIT_FOR_OFED_DRIVER} ${describeContainer(waiting)})`
                : `init container ${IB_SETUP} ${describeContainer(containerStatus(p, IB_SETUP, true))}`
            return missing(`pod ${p.metadata.name}: ${why}${earlier}`)
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
    cluster: [rolledOut(ds), toleratesPool(ds, 'ib-node-config')],
    warnings: []
  }
}

/** What memlock errors in any pod's log mean (every failed step's diagnostic looks for them). */
export function memlockHint(): string {
  return (
    'memlock errors: ib-node-config did not complete on this node (memlock is not unlimited for containerd/kubelet). ' +
    `Check \`kubectl -n ${DS_NAMESPACE} logs -l app=${DS_NAME} -c ${IB_SETUP}\` for FAIL: lines.`
  )
}

export const ibNodeConfig: KubeComponent = {
  name: 'ib-node-config',
  kind: 'manifests',
  skip: () => undefined,
  desired: s => ({
    title: 'DaemonSet kube-system/ib-node-config (memlock, IB modules)',
    manifests: [ibNodeConfigDaemonSet(s)],
    departsFromGuide:
      'Its script stops at the first failure (set -e) and verifies the result (containerd and kubelet running with memlock unlimited, ' +
      'ib_umad and rdma_ucm loaded) before exiting 0; it restarts containerd and kubelet only when their running process lacks ' +
      `the limit, so a re-run restarts nothing, and at most once per boot (marker ${RESTART_MARKER}): a limit the restart does not fix fails with the reason. Writes ${IB_NODE_CONFIG_DONE_FILE} last, after the checks, so that file marks a node ` +
      `whose setup is complete (the RDMA device plugin waits for it). An init container (${WAIT_FOR_OFED_DRIVER}, bounded by the driver's startup probe budget, about 40 min) waits for the ` +
      `OFED driver's ${OFED_READY_FILE} on the node (mountPropagation HostToContainer) instead of a ${LABELS.mofedWait}=false nodeSelector, so a flip of that label never ` +
      'deletes and recreates its pods. updateStrategy OnDelete and apply-only-when-changed; priorityClassName system-node-critical; ' +
      'busybox pinned by digest.'
  }),
  health,
  placement: { on: 'pool-nodes', after: ['nic-cluster-policy'] },
  driftExtras: noDriftExtras,
  // Memlock errors in any failing pod's log point here: memlockHint, which every step's diagnostic uses.
  hints: noHints,
  check: { name: 'ib-node-config', skip: () => undefined },
  removal: s => ({ leftovers: [podsOf(ibNodeConfigDaemonSet(s))] }),
  // OnDelete: the DaemonSet never replaces its pods; where the script changed, the action does.
  stalePods: {
    pods: s => podsOf(ibNodeConfigDaemonSet(s)),
    current: runsCurrentSetup,
    onChange:
      'its DaemonSet is OnDelete (the controller never replaces a pod): where the setup script changed, the action deletes the pods that ran the earlier one and their replacements re-run it'
  }
}
