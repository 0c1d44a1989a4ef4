// The simulated kubelet: takes every pod bound to a node through Pending → init containers →
// Running → Ready (or to Succeeded/Failed), writing real-shaped pod status (conditions,
// containerStatuses, initContainerStatuses, podIP/hostIP), Events and container logs. Timing
// comes from the scenario delays; scenario pod faults make containers crash-loop, fail image
// pulls or never become Ready. What happens inside a container is a PodBehaviour. A pod being
// deleted (deletionTimestamp) has its containers stopped — an image's own program exits on
// SIGTERM at once, a command the pod spec gives (a shell, sleep: PID 1 ignores SIGTERM unless it
// traps it) is killed when the grace period ends — then the kubelet deletes it for good (grace 0).
import type { KubeObject } from '../store.js'
import type { BehaviourEnv, BehaviourFactory, ContainerView, PodBehaviour } from './behaviour.js'
import { delayOf, isPodTerminal, isoNow, podFault, TK, typeFromKey, type SimContext } from './context.js'
import { createHash } from 'node:crypto'
import { StoreError } from '../store.js'
import { containerKey } from '../workloads/index.js'
import { type ExecIo, type ExecProcess, type ExecRequest, containerFs, startExec } from '../workloads/exec.js'
import type { FaultSpec } from '../../scenario.js'
import { execFormatError, fullReference, imagePlatforms, pullPlatformError } from '../images.js'

/**
 * The kubelet's CrashLoopBackOff (kubernetes/kubernetes@d8302640:pkg/kubelet/kubelet.go:
 * initialCrashLoopBackOff 10 s, MaxCrashLoopBackOff 300 s, and an entry that expires after 600 s;
 * the ReduceDefaultCrashLoopBackOffDecay and KubeletCrashLoopBackOffMax gates are alpha, off by
 * default). Per container, as flowcontrol.Backoff keys it: the first exit finds no entry, so the
 * container restarts at once (at the next relist, 1 s) and the entry starts at 10 s; each later
 * exit waits out the entry's back-off from its finish time, then doubles it, up to 300 s; an exit
 * more than 600 s after the entry's last update starts afresh
 * (k8s.io/client-go/util/flowcontrol/backoff.go; doBackOff in pkg/kubelet/kuberuntime).
 */
export const CRASH_LOOP_BACKOFF = {
  initialMs: 10_000,
  maxMs: 300_000,
  expireMs: 600_000,
  /** genericPlegRelistPeriod: when the kubelet notices the exit and restarts a container not in back-off. */
  relistMs: 1_000
} as const

interface ContainerRt extends ContainerView {
  state: 'waiting' | 'running' | 'terminated'
  reason?: string
  message?: string
  /** The terminated state's message (termination log, or the log's tail with FallbackToLogsOnError). */
  terminationMessage?: string
  exitCode?: number
  startedAt?: string
  finishedAt?: string
  ready: boolean
  restartCount: number
  lastTerminated?: {
    exitCode: number
    reason: string
    message?: string
    startedAt?: string
    finishedAt: string
  }
  containerID?: string
  /** A pending gate re-check for this container. */
  gate?: () => void
  /** The kubelet's back-off entry for this container (see CRASH_LOOP_BACKOFF). */
  backoff?: { ms: number; updatedAt: number }
}

interface Condition {
  status: 'True' | 'False'
  lastTransitionTime: string
  reason?: string
  message?: string
}

interface PodRt {
  ns: string
  name: string
  uid: string
  nodeName: string
  pod: KubeObject
  behaviour: PodBehaviour
  fault?: FaultSpec
  phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed'
  init: ContainerRt[]
  main: ContainerRt[]
  /** Ephemeral containers (`kubectl debug`): started once added, never restarted. */
  ephemeral?: Array<{ name: string; image: string; startedAt: string; containerID: string }>
  podIP?: string
  startTime?: string
  conditions: Map<string, Condition>
  cancels: Set<() => void>
  admittedAt: number
  stopped: boolean
  probeFailures: number
  /** Containers are being stopped for the pod's deletion. */
  terminating?: boolean
  /** What its behaviour sees (exec runs with it too). */
  env: BehaviourEnv
  /** Each container's own files, by containerKey. */
  files: Map<string, Map<string, string>>
}

const CONDITION_ORDER = [
  'PodReadyToStartContainers',
  'Initialized',
  'Ready',
  'ContainersReady',
  'PodScheduled'
]

/** What the kubelet answers a stream request it cannot serve (the API server relays it). */
export class KubeletError extends Error {}

/** One end of a connection to a port in a pod. */
export interface PodConnection {
  write(d: Buffer): void
  end(): void
  onData(fn: (d: Buffer) => void): void
  onEnd(fn: () => void): void
}

/** Two connected ends: what one writes, the other receives. */
export function connectionPair(): [PodConnection, PodConnection] {
  const make = () => ({ data: [] as Array<(d: Buffer) => void>, end: [] as Array<() => void>, ended: false })
  const a = make()
  const b = make()
  const end = (x: typeof a) => {
    if (x.ended) return
    x.ended = true
    for (const fn of x.end) fn()
  }
  const side = (self: typeof a, peer: typeof a): PodConnection => ({
    write: d => setImmediate(() => peer.data.forEach(fn => fn(d))),
    end: () =>
      setImmediate(() => {
        end(peer)
        end(self)
      }),
    onData: fn => void self.data.push(fn),
    onEnd: fn => void self.end.push(fn)
  })
  return [side(a, b), side(b, a)]
}

/**
 * Whether a container stops on SIGTERM: an image's own program does; a command from the pod spec
 * runs as PID 1, which ignores SIGTERM unless the script traps it.
 */
function handlesSigterm(spec: any): boolean {
  const argv: string[] = [...(spec?.command ?? []), ...(spec?.args ?? [])]
  if (!argv.length) return true
  return /\btrap\b/.test(argv.join(' '))
}

function hex(n: number): string {
  return Math.floor(n).toString(16).padStart(8, '0')
}

export class Kubelet {
  private readonly pods = new Map<string, PodRt>() // uid -> runtime
  private readonly dirty = new Set<PodRt>()
  private flushScheduled = false
  private readonly imagesOnNode = new Map<string, Set<string>>()
  private readonly podIpSeq = new Map<string, number>()
  private readonly listeners = new Map<string, (conn: PodConnection) => void>()
  private closed = false

  constructor(
    private readonly ctx: SimContext,
    private readonly factories: BehaviourFactory[],
    private readonly fallback: BehaviourFactory
  ) {
    ctx.cache.onEvent((e, tk) => {
      if (tk === TK.pods) {
        if (e.type === 'DELETED') this.stop(e.object.metadata.uid!)
        else if (e.object.metadata.deletionTimestamp) this.terminatePod(e.object)
        else this.consider(e.object)
      } else if (tk === TK.nodes && e.type === 'ADDED') {
        for (const p of ctx.cache.podsOnNode(e.object.metadata.name)) this.consider(p)
      }
    })
    ctx.hardware.onChange(node => this.nodeChanged(node))
    for (const p of ctx.cache.list(TK.pods)) this.consider(p)
  }

  close(): void {
    this.closed = true
    for (const rt of this.pods.values()) this.cancelAll(rt)
  }

  /** Number of pods with a live runtime (for tests). */
  get running(): number {
    return this.pods.size
  }

  private consider(pod: KubeObject): void {
    const uid = pod.metadata.uid!
    const known = this.pods.get(uid)
    if (known) return this.startEphemeral(known, pod)
    if (this.closed) return
    const nodeName: string | undefined = pod.spec?.nodeName
    if (!nodeName || isPodTerminal(pod) || pod.metadata.deletionTimestamp) return
    if (!this.ctx.cache.get(TK.nodes, undefined, nodeName)) return
    this.admit(pod, nodeName)
  }

  /** Starts the ephemeral containers added to a running pod (the kubelet's ephemeral container start). */
  private startEphemeral(rt: PodRt, pod: KubeObject): void {
    const have = rt.ephemeral ?? []
    const added = ((pod.spec?.ephemeralContainers ?? []) as any[]).filter(
      c => !have.some(h => h.name === c.name)
    )
    if (!added.length || rt.stopped) return
    rt.ephemeral = [
      ...have,
      ...added.map(c => ({
        name: String(c.name),
        image: String(c.image),
        startedAt: isoNow(this.ctx),
        containerID:
          `containerd://${hex(rt.uid.length + c.name.length * 7919)}${rt.uid.replace(/-/g, '')}`.slice(0, 77)
      }))
    ]
    this.markDirty(rt)
  }

  private stop(uid: string): void {
    const rt = this.pods.get(uid)
    if (!rt) return
    rt.stopped = true
    this.cancelAll(rt)
    this.pods.delete(uid)
    this.dirty.delete(rt)
    try {
      rt.behaviour.onStop?.()
    } finally {
      this.ctx.logs.dropPod(rt.ns, rt.name)
    }
  }

  private cancelAll(rt: PodRt): void {
    for (const c of rt.cancels) c()
    rt.cancels.clear()
  }

  private after(rt: PodRt, simMs: number, fn: () => void): void {
    const cancel = this.ctx.timers.after(simMs, () => {
      rt.cancels.delete(cancel)
      if (!rt.stopped) fn()
    })
    rt.cancels.add(cancel)
  }

  private nodeChanged(node: string): void {
    for (const p of this.ctx.cache.podsOnNode(node)) {
      const rt = this.pods.get(p.metadata.uid!)
      if (!rt || rt.stopped) continue
      for (const c of [...rt.init, ...rt.main]) c.gate?.()
      rt.behaviour.onNodeChange?.()
    }
  }

  // ---- exec / attach ----

  private runningContainer(ns: string, name: string, container: string): { rt: PodRt; c: ContainerRt } {
    const rt = [...this.pods.values()].find(r => r.ns === ns && r.name === name && !r.stopped)
    const c = rt && [...rt.main, ...rt.init].find(x => x.name === container && x.state === 'running')
    if (!rt || !c) throw new KubeletError(`container not found ("${container}")`)
    return { rt, c }
  }

  /** `kubectl exec`: runs a command in a running container of a pod this kubelet runs. */
  exec(ns: string, name: string, container: string, req: ExecRequest, io: ExecIo): ExecProcess {
    const { rt, c } = this.runningContainer(ns, name, container)
    return startExec(rt.env, c, containerFs(rt.env, c, rt.env.files(c)), req, io)
  }

  /** Follows a container's log from now on: `write` gets what it prints until it stops (`end`). */
  followLog(
    ns: string,
    name: string,
    container: string,
    write: (text: string) => void,
    end: () => void
  ): () => void {
    const rt = [...this.pods.values()].find(r => r.ns === ns && r.name === name && !r.stopped)
    if (!rt) {
      end()
      return () => {}
    }
    let done = false
    const stopLog = this.ctx.logs.subscribe(ns, name, container, write)
    const stop = () => {
      if (done) return
      done = true
      stopLog()
    }
    const check = () => {
      if (done) return
      const c = [...rt.main, ...rt.init].find(x => x.name === container)
      if (rt.stopped || !c || c.state === 'terminated') {
        stop()
        end()
      } else this.ctx.timers.after(1_000, check)
    }
    check()
    return stop
  }

  /** `kubectl attach`: what the container prints from now on, until it stops or the client leaves. */
  attach(ns: string, name: string, container: string, io: ExecIo): ExecProcess {
    this.runningContainer(ns, name, container)
    let finish!: (code: number) => void
    const exited = new Promise<number>(r => (finish = r))
    const stop = this.followLog(
      ns,
      name,
      container,
      t => io.stdout(Buffer.from(t)),
      () => finish(0)
    )
    return {
      write: () => {},
      closeStdin: () => {},
      kill: () => {
        stop()
        finish(0)
      },
      exited
    }
  }

  /**
   * Registers a program listening on `port` in a pod (port-forward connections reach it); returns
   * the function that stops listening.
   */
  listen(podUid: string, port: number, accept: (conn: PodConnection) => void): () => void {
    const k = `${podUid}:${port}`
    this.listeners.set(k, accept)
    return () => this.listeners.delete(k)
  }

  /** A port-forward connection to a pod's port; the kubelet's error when nothing listens there. */
  connect(ns: string, name: string, port: number): PodConnection {
    const rt = [...this.pods.values()].find(r => r.ns === ns && r.name === name && !r.stopped)
    if (!rt) throw new KubeletError(`pod not found ("${name}_${ns}")`)
    const accept = this.listeners.get(`${rt.uid}:${port}`)
    const sandbox = createHash('sha256').update(rt.uid).digest('hex')
    if (!accept)
      throw new KubeletError(
        `error forwarding port ${port} to pod ${sandbox}, uid : failed to execute portforward in network namespace "/var/run/netns/cni-${rt.uid}": failed to connect to localhost:${port} inside namespace "${sandbox}", IPv4: dial tcp4 127.0.0.1:${port}: connect: connection refused IPv6 dial tcp6 [::1]:${port}: connect: connection refused `
      )
    const [client, server] = connectionPair()
    accept(server)
    return client
  }

  // ---- termination ----

  /** A pod being deleted on a node this kubelet runs: stop its containers, then delete it for good. */
  private terminatePod(pod: KubeObject): void {
    if (this.closed) return
    const rt = this.pods.get(pod.metadata.uid!)
    const node = pod.spec?.nodeName
    if (!rt) {
      // Never started here (or already finished): nothing to stop.
      if (node && this.ctx.cache.get(TK.nodes, undefined, node)) this.confirmDeleted(pod)
      return
    }
    if (rt.stopped) return
    const graceMs = (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000
    if (rt.terminating) {
      if (graceMs === 0) this.killAll(rt, 137)
      return
    }
    rt.terminating = true
    rt.pod = pod
    for (const c of rt.main) {
      if (c.state !== 'running' && c.state !== 'waiting') continue
      this.ctx.events.record(pod, {
        reason: 'Killing',
        message: `Stopping container ${c.name}`,
        fieldPath: `spec.containers{${c.name}}`,
        host: rt.nodeName
      })
      const onTerm = handlesSigterm(c.spec)
      this.after(rt, onTerm ? Math.min(this.step(), graceMs) : graceMs, () =>
        this.stopContainer(rt, c, onTerm ? 0 : 137)
      )
    }
    if (!rt.main.some(c => c.state === 'running' || c.state === 'waiting')) this.podStopped(rt)
  }

  private stopContainer(rt: PodRt, c: ContainerRt, code: number): void {
    if (c.state !== 'terminated') this.terminate(rt, c, code)
    if (rt.main.every(x => x.state === 'terminated')) this.podStopped(rt)
    else this.markDirty(rt)
  }

  private killAll(rt: PodRt, code: number): void {
    for (const c of rt.main) if (c.state !== 'terminated') this.terminate(rt, c, code)
    this.podStopped(rt)
  }

  /** Every container stopped: the final status, then the delete that removes the pod. */
  private podStopped(rt: PodRt): void {
    if (rt.phase !== 'Succeeded' && rt.phase !== 'Failed')
      this.finishPod(rt, rt.main.every(c => c.exitCode === 0) ? 'Succeeded' : 'Failed')
    this.flush()
    this.confirmDeleted(rt.pod)
  }

  private confirmDeleted(pod: KubeObject): void {
    const t = typeFromKey(this.ctx, TK.pods)
    if (!t) return
    try {
      this.ctx.store.delete(t, pod.metadata.namespace, pod.metadata.name, {
        gracePeriodSeconds: 0,
        preconditions: { uid: pod.metadata.uid }
      })
    } catch (e) {
      if (!(e instanceof StoreError && (e.code === 404 || e.code === 409))) throw e
    }
  }

  // ---- lifecycle ----

  private admit(pod: KubeObject, nodeName: string): void {
    const ctx = this.ctx
    const now = isoNow(ctx)
    const view = (c: any, init: boolean): ContainerRt => ({
      name: c.name,
      image: c.image ?? '',
      init,
      spec: c,
      state: 'waiting',
      reason: init
        ? 'PodInitializing'
        : (pod.spec.initContainers ?? []).length
          ? 'PodInitializing'
          : 'ContainerCreating',
      ready: false,
      restartCount: 0
    })
    const rt: PodRt = {
      ns: pod.metadata.namespace ?? 'default',
      name: pod.metadata.name,
      uid: pod.metadata.uid!,
      nodeName,
      pod,
      behaviour: undefined as unknown as PodBehaviour,
      fault: podFault(ctx, pod.metadata.name),
      phase: 'Pending',
      init: (pod.spec.initContainers ?? []).map((c: any) => view(c, true)),
      main: (pod.spec.containers ?? []).map((c: any) => view(c, false)),
      conditions: new Map(),
      cancels: new Set(),
      admittedAt: ctx.clock.now(),
      stopped: false,
      probeFailures: 0,
      env: undefined as unknown as BehaviourEnv,
      files: new Map()
    }
    for (const c of rt.init) c.reason = 'PodInitializing'
    if (rt.init.length) rt.init[0].reason = undefined
    const env: BehaviourEnv = {
      ctx,
      pod,
      nodeName,
      hw: () => ctx.hardware.get(nodeName),
      log: (container, text) => ctx.logs.append(rt.ns, rt.name, container, text),
      podIP: () => rt.podIP,
      alive: () => !rt.stopped,
      files: c => {
        let f = rt.files.get(containerKey(c))
        if (!f) rt.files.set(containerKey(c), (f = new Map()))
        return f
      }
    }
    rt.env = env
    rt.behaviour =
      this.factories.reduce<PodBehaviour | undefined>((b, f) => b ?? f(env), undefined) ?? this.fallback(env)!
    this.pods.set(rt.uid, rt)
    rt.conditions.set('PodScheduled', { status: 'True', lastTransitionTime: now })
    rt.conditions.set('PodReadyToStartContainers', { status: 'False', lastTransitionTime: now })
    rt.conditions.set(
      'Initialized',
      rt.init.length
        ? {
            status: 'False',
            lastTransitionTime: now,
            reason: 'ContainersNotInitialized',
            message: `containers with incomplete status: [${rt.init.map(c => c.name).join(' ')}]`
          }
        : { status: 'True', lastTransitionTime: now }
    )
    this.setNotReady(rt, now)
    ctx.events.record(pod, {
      reason: 'Scheduled',
      message: `Successfully assigned ${rt.ns}/${rt.name} to ${nodeName}`,
      component: 'default-scheduler'
    })
    this.markDirty(rt)
    this.after(rt, this.step() / 2, () => this.sandboxReady(rt))
  }

  /** A small unit of simulated time (a tenth of the default delay). */
  private step(): number {
    return Math.max(1, delayOf(this.ctx, 'default') / 10)
  }

  private podDelay(rt: PodRt): number {
    return delayOf(this.ctx, rt.behaviour.delayClass ?? 'default')
  }

  private sandboxReady(rt: PodRt): void {
    const hw = this.ctx.hardware.get(rt.nodeName)
    if (rt.pod.spec.hostNetwork) rt.podIP = hw?.nodeIp ?? '10.224.0.4'
    else {
      const seq = (this.podIpSeq.get(rt.nodeName) ?? 1) + 1
      this.podIpSeq.set(rt.nodeName, seq)
      const o = hw?.ordinal ?? 0
      rt.podIP = `10.244.${o % 256}.${seq % 254 || 254}`
    }
    rt.startTime = isoNow(this.ctx)
    rt.conditions.set('PodReadyToStartContainers', { status: 'True', lastTransitionTime: rt.startTime })
    this.markDirty(rt)
    if (rt.init.length) this.startInit(rt, 0)
    else this.startMain(rt)
  }

  /**
   * Image pull: the ImagePullBackOff fault, and an index without the node's platform (see
   * ../images.ts) fail it with containerd's error. Calls `next` once the image is present.
   */
  private pull(rt: PodRt, c: ContainerRt, next: () => void, attempt = 0): void {
    const fieldPath = `spec.${c.init ? 'initContainers' : 'containers'}{${c.name}}`
    const ev = (reason: string, message: string, type: 'Normal' | 'Warning' = 'Normal') =>
      this.ctx.events.record(rt.pod, { reason, message, type, fieldPath, host: rt.nodeName })
    const ref = fullReference(c.image)
    const arch = this.ctx.hardware.get(rt.nodeName)?.spec.arch ?? 'amd64'
    const failure =
      rt.fault?.kind === 'ImagePullBackOff'
        ? `failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`
        : pullPlatformError(imagePlatforms(this.ctx.scenario, c.image), c.image, arch)
    if (failure) {
      ev('Pulling', `Pulling image "${c.image}"`)
      this.after(rt, this.step(), () => {
        ev(
          'Failed',
          `Failed to pull image "${c.image}": rpc error: code = NotFound desc = ${failure}`,
          'Warning'
        )
        ev('Failed', 'Error: ErrImagePull', 'Warning')
        c.state = 'waiting'
        c.reason = 'ErrImagePull'
        c.message = failure
        this.markDirty(rt)
        this.after(rt, this.step(), () => {
          c.reason = 'ImagePullBackOff'
          c.message = `Back-off pulling image "${c.image}"`
          ev('BackOff', `Back-off pulling image "${c.image}"`)
          ev('Failed', 'Error: ImagePullBackOff', 'Warning')
          this.markDirty(rt)
          const backoff = Math.min(10_000 * 2 ** attempt, 300_000)
          this.after(rt, backoff, () => this.pull(rt, c, next, attempt + 1))
        })
      })
      return
    }
    const seen = this.imagesOnNode.get(rt.nodeName) ?? new Set<string>()
    this.imagesOnNode.set(rt.nodeName, seen)
    if (seen.has(c.image) || c.spec.imagePullPolicy === 'Never') {
      ev('Pulled', `Container image "${c.image}" already present on machine`)
      next()
      return
    }
    ev('Pulling', `Pulling image "${c.image}"`)
    const took = this.step()
    this.after(rt, took, () => {
      seen.add(c.image)
      const secs = (took / 1000).toFixed(3)
      ev(
        'Pulled',
        `Successfully pulled image "${c.image}" in ${secs}s (${secs}s including waiting). Image size: ${100_000_000 + ((c.image.length * 7919) % 900_000_000)} bytes.`
      )
      next()
    })
  }

  private containerStarted(rt: PodRt, c: ContainerRt): void {
    const fieldPath = `spec.${c.init ? 'initContainers' : 'containers'}{${c.name}}`
    this.ctx.events.record(rt.pod, {
      reason: 'Created',
      message: `Created container: ${c.name}`,
      fieldPath,
      host: rt.nodeName
    })
    this.ctx.events.record(rt.pod, {
      reason: 'Started',
      message: `Started container ${c.name}`,
      fieldPath,
      host: rt.nodeName
    })
    c.state = 'running'
    c.reason = undefined
    c.message = undefined
    c.startedAt = isoNow(this.ctx)
    c.containerID = `containerd://${hex(Math.random() * 0xffffffff)}${hex(Math.random() * 0xffffffff)}${rt.uid.replace(/-/g, '').slice(0, 48)}`
  }

  /**
   * A command built for another CPU (a single-platform image of another architecture): runc logs
   * the exec error and the container exits 255 once started (see ../images.ts). True if so.
   */
  private execFails(rt: PodRt, c: ContainerRt, exited: (code: number) => void): boolean {
    const arch = this.ctx.hardware.get(rt.nodeName)?.spec.arch ?? 'amd64'
    const error = execFormatError(imagePlatforms(this.ctx.scenario, c.image), arch, c.spec)
    if (!error) return false
    this.after(rt, this.step(), () => {
      this.ctx.logs.append(rt.ns, rt.name, c.name, error)
      exited(255)
    })
    return true
  }

  private startInit(rt: PodRt, i: number): void {
    const c = rt.init[i]
    c.reason = undefined
    this.pull(rt, c, () => {
      this.containerStarted(rt, c)
      this.markDirty(rt)
      const complete = (code: number): void => {
        this.terminate(rt, c, code)
        if (code !== 0) {
          this.initFailed(rt, i)
          return
        }
        if (i + 1 < rt.init.length) this.startInit(rt, i + 1)
        else {
          rt.conditions.set('Initialized', { status: 'True', lastTransitionTime: isoNow(this.ctx) })
          this.startMain(rt)
        }
        this.markDirty(rt)
      }
      if (this.execFails(rt, c, code => c.state === 'running' && complete(code))) return
      if (rt.behaviour.runInit) {
        rt.behaviour.runInit(c, code => {
          if (!rt.stopped && c.state === 'running') complete(rt.behaviour.onInitComplete?.(c) ?? code)
        })
        return
      }
      const dur = rt.behaviour.initDuration?.(c) ?? this.step()
      this.after(rt, dur, () =>
        this.whenGate(
          rt,
          c,
          () => rt.behaviour.initGate?.(c) ?? true,
          () => complete(rt.behaviour.onInitComplete?.(c) ?? 0)
        )
      )
    })
  }

  private initFailed(rt: PodRt, i: number): void {
    const policy = rt.pod.spec.restartPolicy ?? 'Always'
    if (policy === 'Never') {
      this.finishPod(rt, 'Failed')
      return
    }
    const c = rt.init[i]
    this.backoffRestart(rt, c, () => this.startInit(rt, i))
  }

  private terminate(rt: PodRt, c: ContainerRt, exitCode: number): void {
    c.state = 'terminated'
    c.exitCode = exitCode
    c.reason = exitCode === 0 ? 'Completed' : 'Error'
    c.finishedAt = isoNow(this.ctx)
    c.ready = false
    c.gate = undefined
    c.terminationMessage = this.terminationMessage(rt, c, exitCode)
  }

  /**
   * As the kubelet reads it: the termination message file (at most 4096 bytes); with
   * terminationMessagePolicy FallbackToLogsOnError and an empty file after a failure, the log's
   * last 80 lines (at most 2048 bytes).
   */
  private terminationMessage(rt: PodRt, c: ContainerRt, exitCode: number): string | undefined {
    const file = rt.behaviour.terminationMessage?.(c)
    if (file) return Buffer.from(file).subarray(0, 4096).toString('utf8')
    if (c.spec.terminationMessagePolicy === 'FallbackToLogsOnError' && exitCode !== 0) {
      const log = this.ctx.logs.read(rt.ns, rt.name, c.name) ?? ''
      const tail = log.split('\n').slice(-81).join('\n')
      const bytes = Buffer.from(tail)
      return bytes.subarray(Math.max(0, bytes.length - 2048)).toString('utf8') || undefined
    }
    return undefined
  }

  /** Runs `pass` once `check` holds: now, on a node change, or on a periodic re-check. */
  private whenGate(
    rt: PodRt,
    c: ContainerRt,
    check: () => boolean,
    pass: () => void,
    onWait?: () => void
  ): void {
    let done = false
    const attempt = (): void => {
      if (done || rt.stopped) return
      if (check()) {
        done = true
        c.gate = undefined
        pass()
      }
    }
    c.gate = attempt
    attempt()
    if (!done) {
      onWait?.()
      const recheck = (): void => {
        if (done || rt.stopped) return
        attempt()
        if (!done) {
          onWait?.()
          this.after(rt, 10_000, recheck)
        }
      }
      this.after(rt, 10_000, recheck)
    }
  }

  private startMain(rt: PodRt): void {
    for (const c of rt.main) this.startContainer(rt, c)
    this.markDirty(rt)
  }

  private startContainer(rt: PodRt, c: ContainerRt): void {
    this.pull(rt, c, () => {
      this.containerStarted(rt, c)
      rt.phase = 'Running'
      this.markDirty(rt)
      const ran = c.restartCount
      const execExit = (code: number): void => {
        if (rt.stopped || c.state !== 'running' || c.restartCount !== ran) return
        this.terminate(rt, c, code)
        this.containerExited(rt, c)
      }
      if (this.execFails(rt, c, execExit)) return
      if (rt.behaviour.attachExit) {
        const run = c.restartCount
        rt.behaviour.attachExit(c, code => {
          if (rt.stopped || c.state !== 'running' || c.restartCount !== run) return
          this.terminate(rt, c, code)
          this.containerExited(rt, c)
        })
      }
      rt.behaviour.onStart?.(c)
      const crash =
        (rt.fault?.kind === 'CrashLoopBackOff' && c === rt.main[0] ? this.faultCrashLog(rt, c) : undefined) ??
        rt.behaviour.crashLog?.(c)
      if (crash !== undefined) {
        this.after(rt, Math.max(this.step() * 2, 1000), () => {
          this.ctx.logs.append(rt.ns, rt.name, c.name, crash)
          // A fault's `event`: what anyone allowed to create Events in the namespace could write.
          if (rt.fault?.event && c === rt.main[0])
            this.ctx.events.record(rt.pod, {
              type: 'Warning',
              reason: 'Failed',
              message: rt.fault.event,
              fieldPath: `spec.containers{${c.name}}`,
              host: rt.nodeName
            })
          this.terminate(rt, c, 1)
          this.markDirty(rt)
          this.backoffRestart(rt, c, () => this.startContainer(rt, c))
        })
        return
      }
      if (rt.behaviour.run) {
        rt.behaviour.run(c, code => {
          if (rt.stopped || c.state !== 'running') return
          this.terminate(rt, c, code)
          this.containerExited(rt, c)
        })
        this.readyWhen(rt, c, 0)
        return
      }
      const left = this.podDelay(rt) - (this.ctx.clock.now() - rt.admittedAt)
      const delay = rt.behaviour.readyDelay?.(c) ?? Math.max(this.step(), left)
      this.readyWhen(rt, c, delay)
    })
  }

  private faultCrashLog(rt: PodRt, c: ContainerRt): string {
    return (
      rt.fault?.log ??
      rt.behaviour.crashLog?.(c) ??
      `panic: ${c.name}: fatal error: simulated failure (scenario fault CrashLoopBackOff for pods named "${rt.fault?.pod}*")\n\ngoroutine 1 [running]:\nmain.main()\n\t/workspace/cmd/main.go:42 +0x1d4`
    )
  }

  private readyWhen(rt: PodRt, c: ContainerRt, delay: number): void {
    this.after(rt, delay, () => {
      if (c.state !== 'running') return
      if (rt.fault?.kind === 'NeverReady') {
        this.probeFailing(rt, c)
        return
      }
      this.whenGate(
        rt,
        c,
        () => c.state === 'running' && (rt.behaviour.readyGate?.(c) ?? true),
        () => {
          c.ready = true
          this.markDirty(rt)
          rt.behaviour.onReady?.(c)
        },
        () => {
          const msg = rt.behaviour.probeFailure?.(c)
          if (msg) this.unhealthy(rt, c, msg)
        }
      )
    })
  }

  private unhealthy(rt: PodRt, c: ContainerRt, message: string): void {
    if (rt.probeFailures++ > 60) return
    this.ctx.events.record(rt.pod, {
      type: 'Warning',
      reason: 'Unhealthy',
      message: `Readiness probe failed: ${message}`,
      fieldPath: `spec.containers{${c.name}}`,
      host: rt.nodeName
    })
  }

  private probeFailing(rt: PodRt, c: ContainerRt): void {
    const probe = c.spec.readinessProbe
    let msg: string
    if (probe?.httpGet) {
      const port = probe.httpGet.port ?? 80
      msg = `Get "http://${rt.podIP}:${port}${probe.httpGet.path ?? '/'}": dial tcp ${rt.podIP}:${port}: connect: connection refused`
    } else if (probe?.exec)
      msg =
        rt.behaviour.probeFailure?.(c) ?? `command "${(probe.exec.command ?? []).join(' ')}" exited with 1`
    else msg = `HTTP probe failed with statuscode: 503`
    this.unhealthy(rt, c, msg)
    this.after(rt, 10_000, () => this.probeFailing(rt, c))
  }

  private backoffRestart(rt: PodRt, c: ContainerRt, restart: () => void): void {
    if (rt.terminating) return this.containerExited(rt, c)
    c.lastTerminated = {
      exitCode: c.exitCode ?? 1,
      reason: c.reason ?? 'Error',
      ...(c.terminationMessage ? { message: c.terminationMessage } : {}),
      startedAt: c.startedAt,
      finishedAt: c.finishedAt ?? isoNow(this.ctx)
    }
    const now = this.ctx.clock.now()
    const entry = c.backoff
    // The restart count is the new container's attempt number: it grows when it is created.
    const again = (): void => {
      c.restartCount++
      this.ctx.logs.rotate(rt.ns, rt.name, c.name)
      restart()
    }
    if (!entry || now - entry.updatedAt > CRASH_LOOP_BACKOFF.expireMs) {
      // Not in back-off: restarted at the next relist; the entry starts (again) at 10 s.
      c.backoff = { ms: CRASH_LOOP_BACKOFF.initialMs, updatedAt: now }
      this.markDirty(rt)
      this.after(rt, CRASH_LOOP_BACKOFF.relistMs, again)
      return
    }
    const backoff = entry.ms
    const secs =
      backoff >= 60_000
        ? `${Math.floor(backoff / 60_000)}m${(backoff % 60_000) / 1000}s`
        : `${backoff / 1000}s`
    c.state = 'waiting'
    c.reason = 'CrashLoopBackOff'
    c.message = `back-off ${secs} restarting failed container=${c.name} pod=${rt.name}_${rt.ns}(${rt.uid})`
    c.ready = false
    this.ctx.events.record(rt.pod, {
      type: 'Warning',
      reason: 'BackOff',
      message: `Back-off restarting failed container ${c.name} in pod ${rt.name}_${rt.ns}(${rt.uid})`,
      fieldPath: `spec.${c.init ? 'initContainers' : 'containers'}{${c.name}}`,
      host: rt.nodeName
    })
    this.markDirty(rt)
    this.after(rt, backoff, () => {
      c.backoff = {
        ms: Math.min(backoff * 2, CRASH_LOOP_BACKOFF.maxMs),
        updatedAt: this.ctx.clock.now()
      }
      again()
    })
  }

  private containerExited(rt: PodRt, c: ContainerRt): void {
    if (rt.terminating) {
      if (rt.main.every(x => x.state === 'terminated')) this.podStopped(rt)
      return
    }
    const policy = rt.pod.spec.restartPolicy ?? 'Always'
    if (policy === 'Always' || (policy === 'OnFailure' && c.exitCode !== 0)) {
      this.backoffRestart(rt, c, () => this.startContainer(rt, c))
      return
    }
    if (rt.main.every(x => x.state === 'terminated')) {
      this.finishPod(rt, rt.main.every(x => x.exitCode === 0) ? 'Succeeded' : 'Failed')
    } else this.markDirty(rt)
  }

  private finishPod(rt: PodRt, phase: 'Succeeded' | 'Failed'): void {
    rt.phase = phase
    const now = isoNow(this.ctx)
    for (const c of rt.main) if (c.state !== 'terminated') this.terminate(rt, c, 137)
    rt.conditions.set('Ready', { status: 'False', lastTransitionTime: now, reason: 'PodCompleted' })
    rt.conditions.set('ContainersReady', { status: 'False', lastTransitionTime: now, reason: 'PodCompleted' })
    rt.conditions.set('PodReadyToStartContainers', { status: 'False', lastTransitionTime: now })
    this.cancelAll(rt)
    this.markDirty(rt)
    this.flushSoon()
    // The runtime stays until the pod is deleted, so a terminal pod is never restarted.
  }

  private setNotReady(rt: PodRt, now: string): void {
    const waiting = rt.main.filter(c => !c.ready).map(c => c.name)
    const msg = `containers with unready status: [${waiting.join(' ')}]`
    rt.conditions.set('Ready', {
      status: 'False',
      lastTransitionTime: now,
      reason: 'ContainersNotReady',
      message: msg
    })
    rt.conditions.set('ContainersReady', {
      status: 'False',
      lastTransitionTime: now,
      reason: 'ContainersNotReady',
      message: msg
    })
  }

  // ---- status ----

  private markDirty(rt: PodRt): void {
    if (rt.stopped) return
    this.dirty.add(rt)
    this.flushSoon()
  }

  private flushSoon(): void {
    if (this.flushScheduled) return
    this.flushScheduled = true
    setImmediate(() => this.flush())
  }

  /** Writes every changed pod status now. */
  flush(): void {
    this.flushScheduled = false
    if (this.closed) return
    const t = typeFromKey(this.ctx, TK.pods)
    if (!t) return
    const batch = [...this.dirty]
    this.dirty.clear()
    for (const rt of batch) {
      if (rt.stopped) continue
      this.refreshReady(rt)
      const status = this.render(rt)
      this.ctx.store.mutate(
        t,
        rt.ns,
        rt.name,
        o => {
          // The QoS class is the API server's (set when the pod is created); the kubelet keeps it.
          o.status = { ...status, qosClass: o.status?.qosClass ?? status.qosClass }
        },
        { subresource: 'status' }
      )
    }
  }

  private refreshReady(rt: PodRt): void {
    if (rt.phase === 'Succeeded' || rt.phase === 'Failed') return
    const now = isoNow(this.ctx)
    const allReady = rt.main.length > 0 && rt.main.every(c => c.ready)
    const cur = rt.conditions.get('Ready')
    if (allReady && cur?.status !== 'True') {
      rt.conditions.set('Ready', { status: 'True', lastTransitionTime: now })
      rt.conditions.set('ContainersReady', { status: 'True', lastTransitionTime: now })
    } else if (!allReady) {
      const waiting = rt.main.filter(c => !c.ready).map(c => c.name)
      const msg = `containers with unready status: [${waiting.join(' ')}]`
      if (cur?.status !== 'False' || cur.message !== msg) {
        const when = cur?.status === 'False' ? cur.lastTransitionTime : now
        rt.conditions.set('Ready', {
          status: 'False',
          lastTransitionTime: when,
          reason: 'ContainersNotReady',
          message: msg
        })
        rt.conditions.set('ContainersReady', {
          status: 'False',
          lastTransitionTime: when,
          reason: 'ContainersNotReady',
          message: msg
        })
      }
    }
  }

  private renderContainer(c: ContainerRt): any {
    let state: any
    if (c.state === 'running') state = { running: { startedAt: c.startedAt } }
    else if (c.state === 'terminated')
      state = {
        terminated: {
          exitCode: c.exitCode,
          reason: c.reason,
          ...(c.terminationMessage ? { message: c.terminationMessage } : {}),
          startedAt: c.startedAt,
          finishedAt: c.finishedAt,
          containerID: c.containerID
        }
      }
    else
      state = {
        waiting: { reason: c.reason ?? 'ContainerCreating', ...(c.message ? { message: c.message } : {}) }
      }
    const image = c.image.includes(':') || c.image.includes('@') ? c.image : `${c.image}:latest`
    return {
      name: c.name,
      image,
      imageID:
        c.state === 'waiting' && !c.containerID
          ? ''
          : `${image.split(':')[0]}@sha256:${hex(c.image.length * 2654435761)}${'0'.repeat(56)}`,
      ...(c.containerID ? { containerID: c.containerID } : {}),
      ready: c.ready,
      started: c.state === 'running',
      restartCount: c.restartCount,
      state,
      lastState: c.lastTerminated ? { terminated: c.lastTerminated } : {}
    }
  }

  private render(rt: PodRt): any {
    const hw = this.ctx.hardware.get(rt.nodeName)
    const conditions = CONDITION_ORDER.filter(t => rt.conditions.has(t)).map(type => {
      const c = rt.conditions.get(type)!
      return {
        type,
        status: c.status,
        lastProbeTime: null,
        lastTransitionTime: c.lastTransitionTime,
        ...(c.reason ? { reason: c.reason } : {}),
        ...(c.message ? { message: c.message } : {})
      }
    })
    const status: any = {
      phase: rt.phase,
      conditions,
      hostIP: hw?.nodeIp,
      hostIPs: hw ? [{ ip: hw.nodeIp }] : undefined,
      qosClass: 'BestEffort'
    }
    if (rt.podIP) {
      status.podIP = rt.podIP
      status.podIPs = [{ ip: rt.podIP }]
    }
    if (rt.startTime) status.startTime = rt.startTime
    if (rt.init.length) status.initContainerStatuses = rt.init.map(c => this.renderContainer(c))
    status.containerStatuses = rt.main.map(c => this.renderContainer(c))
    if (rt.ephemeral?.length)
      status.ephemeralContainerStatuses = rt.ephemeral.map(e => {
        const image = e.image.includes(':') || e.image.includes('@') ? e.image : `${e.image}:latest`
        return {
          name: e.name,
          state: { running: { startedAt: e.startedAt } },
          lastState: {},
          ready: false,
          restartCount: 0,
          image,
          imageID: `${image.split(':')[0]}@sha256:${hex(e.image.length * 2654435761)}${'0'.repeat(56)}`,
          containerID: e.containerID
        }
      })
    for (const k of Object.keys(status)) if (status[k] === undefined) delete status[k]
    return status
  }
}
