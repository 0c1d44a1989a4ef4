// Starts the simulated control plane and node agents over an ObjectStore: the shared context
// (cache, queue, timers, hardware, logs, events) and every controller — DaemonSet, ReplicaSet,
// Deployment, Job, CronJob, StatefulSet, endpoints and EndpointSlices, disruption (PodDisruptionBudget status), resource quota, scheduler, garbage collector, namespace, kubelet, NFD, Network Operator, GPU
// Operator. startControlPlane starts only what deletion needs from kube-controller-manager (the
// garbage collector and the namespace controller), for a world that is an API server alone.
import type { SimClock } from '../../contracts.js'
import type { Scenario } from '../../scenario.js'
import { HardwareRegistry } from '../hardware.js'
import type { ObjectStore } from '../store.js'
import { shellWorkloads } from '../workloads/index.js'
import { PerftestNetwork } from '../workloads/perftest.js'
import type { BehaviourFactory, PodBehaviour } from './behaviour.js'
import { ClusterCache } from './cache.js'
import { isoNow, Timers, type SimContext } from './context.js'
import { CronJobController } from './cronjob.js'
import { DaemonSetController } from './daemonset.js'
import { DisruptionController } from './disruption.js'
import { EndpointsController } from './endpoints.js'
import { EventRecorder } from './events.js'
import { GarbageCollector } from './gc.js'
import { NamespaceController } from './namespace.js'
import { NamespaceDefaultsController } from './namespace-defaults.js'
import { GpuOperator } from './gpu-operator.js'
import { Kubelet } from './kubelet.js'
import { LogStore, type LogOptions } from './logs.js'
import { NetworkOperator } from './network-operator.js'
import { NfdController } from './nfd.js'
import { NodeLifecycleController } from './node-lifecycle.js'
import { OPERAND_BEHAVIOURS, rdmaSharedDpBehaviour } from './operand-pods.js'
import { WorkQueue } from './queue.js'
import { DeploymentController, JobController, ReplicaSetController } from './replication.js'
import { ResourceQuotaController } from './resource-quota.js'
import { Scheduler } from './scheduler.js'
import { StatefulSetController } from './statefulset.js'

export interface Controllers {
  ctx: SimContext
  kubelet: Kubelet
  /** The perftest servers listening and every perftest run so far. */
  perftest: PerftestNetwork
  /** Container logs, as the API server's log endpoint serves them. */
  logs(ns: string, pod: string, container?: string, opts?: LogOptions): string | undefined
  /** Runs queued reconciles and pending pod-status writes now. */
  flush(): void
  close(): void
}

interface ControllerOptions {
  store: ObjectStore
  clock: SimClock
  scenario: Scenario
  hardware?: HardwareRegistry
  /** The cluster's CA bundle, which every namespace's `kube-root-ca.crt` ConfigMap publishes. */
  caPem?: string
  onError?: (controller: string, key: string, err: unknown) => void
}

function makeContext(o: ControllerOptions): SimContext {
  const wallNow = () => o.clock.wallNow()
  const cache = new ClusterCache(o.store)
  const ctx: SimContext = {
    store: o.store,
    cache,
    queue: new WorkQueue(
      2,
      o.onError ?? ((c, k, e) => console.error(`[sim-kube] ${c} ${k}: ${(e as Error).stack ?? e}`))
    ),
    clock: o.clock,
    timers: new Timers(o.clock),
    scenario: o.scenario,
    hardware: o.hardware ?? new HardwareRegistry(),
    logs: new LogStore(wallNow),
    events: undefined as unknown as EventRecorder,
    wallNow
  }
  ctx.events = new EventRecorder(o.store, () => isoNow(ctx), wallNow)
  return ctx
}

function closer(ctx: SimContext): () => void {
  return () => {
    ctx.queue.close()
    ctx.timers.close()
    ctx.cache.close()
  }
}

/** The garbage collector and the namespace controller alone (an API server with no nodes). */
export function startControlPlane(o: ControllerOptions): { ctx: SimContext; close(): void } {
  const ctx = makeContext(o)
  new GarbageCollector(ctx)
  new NamespaceController(ctx)
  return { ctx, close: closer(ctx) }
}

export function startControllers(o: ControllerOptions): Controllers {
  const ctx = makeContext(o)
  const net = new PerftestNetwork()
  const longRunning = (): PodBehaviour => ({ kind: 'long-running' })
  const shell = shellWorkloads(net)
  // The RDMA device plugin's own init containers (the wait for ib-node-config's result on the
  // host) run their commands in the simulated shell, seeing the host through their mounts.
  const rdmaDp: BehaviourFactory = env => {
    const b = rdmaSharedDpBehaviour(env)
    const withCommands = (env.pod.spec.initContainers ?? []).some((c: any) => c.command?.length)
    const sh = b && withCommands ? shell(env) : undefined
    return b && sh?.runInit ? { ...b, runInit: sh.runInit } : b
  }
  const operands = OPERAND_BEHAVIOURS.map(f => (f === rdmaSharedDpBehaviour ? rdmaDp : f))
  const kubelet = new Kubelet(ctx, [...operands, shell], longRunning)
  new Scheduler(ctx)
  new DaemonSetController(ctx)
  new ReplicaSetController(ctx)
  new DeploymentController(ctx)
  new JobController(ctx)
  new StatefulSetController(ctx)
  new CronJobController(ctx)
  new ResourceQuotaController(ctx)
  new DisruptionController(ctx)
  new EndpointsController(ctx)
  new GarbageCollector(ctx)
  new NamespaceController(ctx)
  new NamespaceDefaultsController(ctx, o.caPem)
  new NodeLifecycleController(ctx)
  new NfdController(ctx)
  new NetworkOperator(ctx)
  new GpuOperator(ctx)
  return {
    ctx,
    kubelet,
    perftest: net,
    logs: (ns, pod, container, opts) => ctx.logs.read(ns, pod, container, opts),
    flush: () => {
      ctx.queue.flush()
      kubelet.flush()
    },
    close: () => {
      kubelet.close()
      closer(ctx)()
    }
  }
}
