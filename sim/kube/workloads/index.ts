// What runs in pods that are not part of the operator stack — the action's verification probes
// and benchmarks, and any other container with a command: the container's script runs in the
// simulated shell against the node's tools (ibstat, ibv_devinfo, ulimit -l, /proc/modules, sysfs,
// …) and perftest — and, in images that ship UCX (Dynamo's runtime images, workloads/image-contents.ts),
// ucx_info and ucx_perftest (workloads/ucx.ts); it logs, takes simulated time, and exits with the
// script's status. Each container has its own files (/tmp, its termination log — what the kubelet
// reports as the terminated state's message — and, unless privileged, anything else it writes),
// its /dev/shm (sized as the kubelet sizes a memory-backed emptyDir), its user (the image's, or
// runAsUser), and the GPUs the device plugin gave it: a container asking for N nvidia.com/gpu gets
// N of the node's free GPUs in no particular order (as the kubelet's device manager hands them
// out), all of them when it asks for all.
import {
  commandText,
  type BehaviourEnv,
  type BehaviourFactory,
  type ContainerView,
  type PodBehaviour
} from '../controllers/behaviour.js'
import { TK } from '../controllers/context.js'
import { extendedRequests } from '../controllers/placement.js'
import { unitHash, type NodeHardware, type RdmaNic } from '../hardware.js'
import { parseQuantity } from '../../../src/kube/quantity.js'
import { hostCommands, type PodView } from './host-tools.js'
import { containerUid, imageModel } from './image-contents.js'
import { PERFTEST_TOOLS, perftestCommand, PerftestNetwork, visibleGpus } from './perftest.js'
import { containerScript, Shell } from './shell.js'
import { ucxCommands, UcxNetwork } from './ucx.js'
import { isNcclTestsImage, ncclCommands, NcclNetwork } from './nccl.js'

/** A container path's host path and how the volume mount behind it propagates host mounts. */
export interface HostMount {
  host: string
  /** Undefined: through nsenter (a privileged container), which sees the host's mounts. */
  propagation?: 'None' | 'HostToContainer' | 'Bidirectional'
}

/**
 * The host path behind a container path: through the container's hostPath volume mounts (the
 * longest mountPath that contains it), or the same path for a privileged container (which reaches
 * the host with nsenter); undefined when the container cannot see the host there.
 */
export function hostMountOf(pod: any, c: ContainerView, path: string): HostMount | undefined {
  const volumes = new Map<string, string>(
    (pod.spec?.volumes ?? []).filter((v: any) => v.hostPath?.path).map((v: any) => [v.name, v.hostPath.path])
  )
  let best: { mount: string; host: string; propagation: HostMount['propagation'] } | undefined
  for (const m of c.spec.volumeMounts ?? []) {
    const host = volumes.get(m.name)
    const mount = String(m.mountPath ?? '').replace(/\/+$/, '')
    if (!host || !mount) continue
    if (path !== mount && !path.startsWith(`${mount}/`)) continue
    if (!best || mount.length > best.mount.length)
      best = { mount, host: host.replace(/\/+$/, ''), propagation: m.mountPropagation ?? 'None' }
  }
  if (best) return { host: best.host + path.slice(best.mount.length), propagation: best.propagation }
  return c.spec.securityContext?.privileged ? { host: path } : undefined
}

export function hostPathOf(pod: any, c: ContainerView, path: string): string | undefined {
  return hostMountOf(pod, c, path)?.host
}

/**
 * Whether a container that started at `startedAt` sees a host path through its mount. The kubelet
 * bind-mounts a hostPath volume recursively (rbind) and, without propagation, as a private mount
 * (MountPropagationNone: "the volume in a container will not receive new mounts from the host or
 * other containers", kubernetes/api@3fed8b5a:core/v1/types.go), so a host mount made after the
 * container started is not seen there; HostToContainer and Bidirectional (rslave, rshared)
 * receive it. Files written into the host directory itself are seen either way.
 */
export function seesHostPath(hw: NodeHardware, m: HostMount, startedAt: number): boolean {
  if (!m.propagation || m.propagation !== 'None') return true
  const under = hw.mounts.find(x => m.host === x.path || m.host.startsWith(`${x.path}/`))
  return !under || under.at <= startedAt
}

/** The GPUs each running container holds, per node (hardware indexes). */
export class GpuAllocations {
  private readonly byNode = new Map<string, Map<string, number[]>>()

  /**
   * Gives the container `count` of the node's free GPUs, picked in an order seeded by `seed`
   * (arbitrary but reproducible, like the device manager's choice); fewer when fewer are free.
   */
  allocate(node: string, holder: string, gpuCount: number, count: number, seed: string): number[] {
    const held = this.byNode.get(node) ?? new Map<string, number[]>()
    this.byNode.set(node, held)
    const busy = new Set([...held.values()].flat())
    const free = Array.from({ length: gpuCount }, (_, i) => i).filter(i => !busy.has(i))
    free.sort((a, b) => unitHash(`${seed}/${a}`) - unitHash(`${seed}/${b}`))
    const got = free.slice(0, Math.max(0, count))
    held.set(holder, got)
    return got
  }

  /** Frees what a container held on the node; a key ending in `/` (a pod's) frees all its containers'. */
  release(node: string, holder: string): void {
    const held = this.byNode.get(node)
    if (!held) return
    for (const k of [...held.keys()])
      if (k === holder || (holder.endsWith('/') && k.startsWith(holder))) held.delete(k)
  }
}

/** A container's name within its pod, init containers apart (`init:<name>`). */
export function containerKey(c: ContainerView): string {
  return `${c.init ? 'init:' : ''}${c.name}`
}

/** nvidia.com/gpu the container itself asks for (requests, else limits, as placement counts them). */
export function containerGpus(c: ContainerView): number {
  return extendedRequests({ containers: [c.spec] })['nvidia.com/gpu'] ?? 0
}

/**
 * The RDMA devices a pod's containers get from the RDMA shared device plugin: for each rdma/*
 * resource it requests, the devices that resource's selectors matched on its node (the plugin
 * hands every pod of a shared resource all of its devices); every device for a privileged
 * container or one that mounts the host's /dev.
 */
export function allocatedRdmaDevices(hw: NodeHardware, podSpec: any, c: ContainerView): RdmaNic[] {
  const privileged = !!c.spec.securityContext?.privileged
  const devMount = (podSpec?.volumes ?? []).some((v: any) => v.hostPath?.path?.startsWith('/dev'))
  if (privileged || devMount) return [...hw.nics]
  const req = extendedRequests(podSpec)
  const resources = Object.keys(req).filter(k => k.startsWith('rdma/') && req[k] > 0)
  const names = new Set(resources.flatMap(r => hw.rdmaMatchedDevices[r] ?? []))
  return hw.nics.filter(n => names.has(n.name))
}

/** What a container can see: the RDMA devices allocated to it (see allocatedRdmaDevices), GPUs with nvidia.com/gpu (or privileged). */
export function podView(env: BehaviourEnv, c: ContainerView): PodView | undefined {
  const hw = env.hw()
  if (!hw) return undefined
  const startedAt = env.ctx.clock.now()
  const readFile = (path: string): string | undefined => {
    const m = hostMountOf(env.pod, c, path)
    const now = env.hw()
    return m === undefined || !now || !seesHostPath(now, m, startedAt) ? undefined : now.files[m.host]
  }
  const req = extendedRequests(env.pod.spec)
  const privileged = !!c.spec.securityContext?.privileged
  const ctx = env.ctx
  return {
    hw,
    podName: env.pod.metadata.name,
    verbsDevices: allocatedRdmaDevices(hw, env.pod.spec, c),
    gpus: privileged || (req['nvidia.com/gpu'] ?? 0) > 0,
    readFile,
    ...(privileged
      ? {
          host: {
            mutate: (fn: (h: NodeHardware) => void) => ctx.hardware.update(hw.nodeName, fn),
            now: () => ctx.clock.now()
          }
        }
      : {})
  }
}

function hasCapability(c: ContainerView, cap: string): boolean {
  return (
    !!c.spec.securityContext?.privileged ||
    (c.spec.securityContext?.capabilities?.add ?? []).some((a: string) => a === cap || a === `CAP_${cap}`)
  )
}

/** The container's environment: literal values, downward-API fields, and the usual pod variables. */
export function containerEnv(env: BehaviourEnv, c: ContainerView): Record<string, string> {
  const out: Record<string, string> = {
    HOSTNAME: env.pod.metadata.name,
    HOME: '/root',
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    KUBERNETES_SERVICE_HOST: '10.0.0.1',
    KUBERNETES_SERVICE_PORT: '443'
  }
  for (const e of c.spec.env ?? []) {
    if (e.value !== undefined) out[e.name] = String(e.value)
    const f = e.valueFrom?.fieldRef?.fieldPath
    if (f === 'spec.nodeName') out[e.name] = env.nodeName
    else if (f === 'status.podIP') out[e.name] = env.podIP() ?? ''
    else if (f === 'status.hostIP') out[e.name] = env.hw()?.nodeIp ?? ''
    else if (f === 'metadata.name') out[e.name] = env.pod.metadata.name
    else if (f === 'metadata.namespace') out[e.name] = env.pod.metadata.namespace ?? 'default'
  }
  return out
}

/** containerd's own /dev/shm of a pod sandbox: 64 MiB (defaultShmSize). */
export const DEFAULT_SHM_KIB = 65536

/**
 * The size (KiB) of a container's /dev/shm: a memory-backed emptyDir mounted there is sized as the
 * kubelet sizes it — the node's allocatable memory, lowered to the pod's memory limit (when every
 * container has one), lowered to the volume's sizeLimit — else containerd's 64 MiB.
 */
export function shmKiB(podSpec: any, c: ContainerView, allocatableMemory: number | undefined): number {
  const mount = (c.spec.volumeMounts ?? []).find(
    (m: any) => String(m.mountPath).replace(/\/+$/, '') === '/dev/shm'
  )
  const vol = mount && (podSpec?.volumes ?? []).find((v: any) => v.name === mount.name)
  if (!vol?.emptyDir || vol.emptyDir.medium !== 'Memory') return DEFAULT_SHM_KIB
  let size = allocatableMemory ?? Infinity
  const limits = (podSpec.containers ?? []).map((x: any) => parseQuantity(x.resources?.limits?.memory))
  if (limits.length && limits.every((l: number | undefined) => l !== undefined && l > 0)) {
    const pod = limits.reduce((a: number, b: number) => a + b, 0)
    if (pod <= size) size = pod
  }
  const sl = parseQuantity(vol.emptyDir.sizeLimit)
  if (sl !== undefined && sl > 0 && sl <= size) size = sl
  return Number.isFinite(size) ? Math.floor(size / 1024) : DEFAULT_SHM_KIB
}

/**
 * A file of a Secret or ConfigMap volume the container mounts (each key a file under the mount
 * path, or the `items` paths), as the kubelet projects them; undefined for any other path.
 */
export function volumeFile(env: BehaviourEnv, c: ContainerView, path: string): string | undefined {
  for (const m of c.spec.volumeMounts ?? []) {
    const mount = String(m.mountPath ?? '').replace(/\/+$/, '')
    if (!mount || !path.startsWith(`${mount}/`)) continue
    const vol = (env.pod.spec?.volumes ?? []).find((v: any) => v.name === m.name)
    const src = vol?.secret
      ? { tk: 'secrets', name: vol.secret.secretName, items: vol.secret.items }
      : vol?.configMap
        ? { tk: TK.configmaps, name: vol.configMap.name, items: vol.configMap.items }
        : undefined
    if (!src) continue
    const obj = env.ctx.cache.get(src.tk, env.pod.metadata.namespace, src.name)
    if (!obj) continue
    const rel = path.slice(mount.length + 1)
    const key = src.items ? (src.items as any[]).find(i => i.path === rel)?.key : rel
    if (key === undefined) continue
    if (src.tk === 'secrets') {
      const b64 = obj.data?.[key]
      if (b64 !== undefined) return Buffer.from(String(b64), 'base64').toString('utf8')
      return obj.stringData?.[key]
    }
    return obj.data?.[key]
  }
  return undefined
}

/** Where the kubelet reads a container's termination message. */
export function terminationMessagePath(c: ContainerView): string {
  return c.spec.terminationMessagePath ?? '/dev/termination-log'
}

/** Runs containers that have a command through the simulated shell. */
export function shellWorkloads(
  net: PerftestNetwork,
  gpuAllocations = new GpuAllocations(),
  ucxNet = new UcxNetwork(),
  ncclNet = new NcclNetwork()
): BehaviourFactory {
  return (env: BehaviourEnv): PodBehaviour | undefined => {
    const all = [...(env.pod.spec.initContainers ?? []), ...(env.pod.spec.containers ?? [])]
    const hasCommand = all.some((c: any) => (c.command?.length ?? 0) + (c.args?.length ?? 0) > 0)
    if (!hasCommand) return undefined
    const ctx = env.ctx
    const podKey = `${env.pod.metadata.uid ?? env.pod.metadata.name}/`
    /** Each container's own files (init containers keep theirs for their termination message). */
    const filesOf = (c: ContainerView): Map<string, string> => env.files(c)
    const start = (c: ContainerView, exited: (code: number) => void): void => {
      const holder = `${podKey}${containerKey(c)}`
      // The device manager takes a container's GPUs back when it ends.
      const done = (code: number): void => {
        gpuAllocations.release(env.nodeName, holder)
        exited(code)
      }
      const { script, argv } = containerScript(c.spec)
      if (script === undefined && argv === undefined) {
        if (c.init) done(0)
        return
      }
      const base = podView(env, c)
      if (!base) {
        done(1)
        return
      }
      const own = filesOf(c)
      own.clear()
      const termPath = terminationMessagePath(c)
      // Container-local: its termination log, /tmp, and whatever an unprivileged container writes.
      const local = (path: string) => path === termPath || path.startsWith('/tmp/') || !base.host
      const wantGpus = containerGpus(c)
      const image = imageModel(String(c.image ?? ''), ctx.scenario)
      const node = ctx.cache.list(TK.nodes).find(n => n.metadata.name === env.nodeName)
      const view: PodView = {
        ...base,
        uid: containerUid(env.pod.spec, c.spec, image),
        shmKiB: shmKiB(env.pod.spec, c, parseQuantity(node?.status?.allocatable?.memory)),
        readFile: path => own.get(path) ?? volumeFile(env, c, path) ?? base.readFile?.(path),
        ...(wantGpus > 0 && !base.host
          ? {
              gpuIndexes: gpuAllocations.allocate(
                env.nodeName,
                holder,
                base.hw.gpus.length,
                wantGpus,
                `${podKey}${c.name}`
              )
            }
          : {})
      }
      view.visibleGpus = visibleGpus(view)
      const commands = hostCommands(view)
      const perftest = perftestCommand({
        view,
        image: c.image,
        ipcLock: hasCapability(c, 'IPC_LOCK'),
        podIP: () => env.podIP(),
        resolve: host => {
          const pod = ctx.cache.list(TK.pods).find(p => p.metadata.name === host || p.spec?.hostname === host)
          if (pod?.status?.podIP) return pod.status.podIP
          return ctx.hardware.get(host)?.nodeIp
        },
        net,
        sleep: ms => new Promise<void>(r => ctx.timers.after(ms, r)),
        now: () => ctx.clock.now(),
        alive: () => env.alive()
      })
      for (const t of PERFTEST_TOOLS) commands[t] = perftest
      const cenv = containerEnv(env, c)
      if (image.ucx) {
        const build = image.ucx
        Object.assign(
          commands,
          ucxCommands({
            side: () => ({
              view,
              build,
              uid: view.uid ?? 0,
              ipcLock: hasCapability(c, 'IPC_LOCK'),
              privileged: !!c.spec.securityContext?.privileged,
              env: cenv,
              podName: env.pod.metadata.name,
              podIP: () => env.podIP()
            }),
            resolve: host => ctx.cache.list(TK.pods).find(p => p.metadata.name === host)?.status?.podIP,
            net: ucxNet,
            sleep: ms => new Promise<void>(r => ctx.timers.after(ms, r))
          })
        )
      }
      if (isNcclTestsImage(String(c.image ?? ''))) {
        const readFile = (path: string) => view.readFile?.(path)
        Object.assign(
          commands,
          ncclCommands({
            side: () => ({
              view,
              env: cenv,
              podName: env.pod.metadata.name,
              podIP: () => env.podIP(),
              readFile
            }),
            net: ncclNet,
            sleep: ms => new Promise<void>(r => ctx.timers.after(ms, r)),
            writeFile: (path, content) => own.set(path, content)
          })
        )
      }
      const shell = new Shell({
        commands,
        env: cenv,
        io: { out: t => env.log(c.name, t), err: t => env.log(c.name, t) },
        sleep: ms =>
          ms === Infinity ? new Promise<void>(() => {}) : new Promise<void>(r => ctx.timers.after(ms, r)),
        aborted: () => !env.alive(),
        fileExists: path => view.readFile?.(path) !== undefined,
        writeFile: (path: string, content: string, append: boolean) => {
          if (local(path)) own.set(path, (append ? (own.get(path) ?? '') : '') + content)
          else
            ctx.hardware.update(view.hw.nodeName, h => {
              h.files[path] = (append ? (h.files[path] ?? '') : '') + content
            })
        }
      })
      const p = script !== undefined ? shell.run(script) : shell.runArgv(argv!)
      p.then(
        code => {
          if (env.alive()) done(code)
        },
        err => {
          env.log(c.name, `sh: internal error: ${(err as Error).message}`)
          if (env.alive()) done(2)
        }
      )
    }
    return {
      kind: 'shell',
      run: start,
      terminationMessage: c => filesOf(c).get(terminationMessagePath(c)),
      onStop: () => gpuAllocations.release(env.nodeName, podKey),
      runInit(c, done) {
        const ibSetup = /modprobe\s+ib_umad/.test(commandText(c.spec))
        start(c, code => {
          if (ibSetup && code === 0) {
            ctx.hardware.update(env.nodeName, h => {
              h.ibNodeConfigRuns++
              h.timeline.ibNodeConfigInitAt = h.timeline.ibNodeConfigInitAt ?? ctx.clock.now()
            })
          }
          done(code)
        })
      }
    }
  }
}
