// The contract between the simulated kubelet and what runs inside a pod: a PodBehaviour decides
// how long containers take, what they log, what they change on the node (OFED loaded, memlock,
// device plugins) and whether they run to completion, crash, or wait on node state.
import type { NodeHardware } from '../hardware.js'
import type { KubeObject } from '../store.js'
import type { SimContext } from './context.js'

export interface ContainerView {
  name: string
  image: string
  init: boolean
  spec: any
}

export type DelayClass = 'mofed' | 'gpuDriver' | 'default'

export interface PodBehaviour {
  readonly kind: string
  /** Which scenario delay applies to the pod as a whole (until Ready). */
  delayClass?: DelayClass
  /** Simulated ms an init container runs (default: a tenth of the default delay). */
  initDuration?(c: ContainerView): number | undefined
  /** An init container finishes only when this holds (re-checked on node changes). */
  initGate?(c: ContainerView): boolean
  /** Init containers that run a program: call done(exitCode) when it exits (replaces initDuration/initGate). */
  runInit?(c: ContainerView, done: (exitCode: number) => void): void
  /** An init container finished: log, change the node; a non-zero return fails it. */
  onInitComplete?(c: ContainerView): number | void
  /** A main container started. */
  onStart?(c: ContainerView): void
  /** Simulated ms from container start to Ready (default: what is left of the pod's delay). */
  readyDelay?(c: ContainerView): number | undefined
  /** A main container turns Ready only when this holds (re-checked on node changes). */
  readyGate?(c: ContainerView): boolean
  onReady?(c: ContainerView): void
  /** Containers that run to completion: call done(exitCode) when finished. */
  run?(c: ContainerView, done: (exitCode: number) => void): void
  /**
   * A main container whose process may exit by itself while it runs (a sidecar whose command fails
   * once what it waited for is there): called at each start, before onStart, with the way to end
   * that run; the kubelet restarts it with back-off as the pod's restartPolicy says.
   */
  attachExit?(c: ContainerView, exit: (code: number) => void): void
  /** Text that makes the container crash (CrashLoopBackOff) after starting, logged each time. */
  crashLog?(c: ContainerView): string | undefined
  /** The readiness probe message when a gate keeps failing. */
  probeFailure?(c: ContainerView): string | undefined
  /** The node's hardware state changed. */
  onNodeChange?(): void
  /** The pod is gone (deleted, or its node removed). */
  onStop?(): void
  /** What the container left at its terminationMessagePath when it ended (the kubelet caps it at 4096 bytes). */
  terminationMessage?(c: ContainerView): string | undefined
}

export interface BehaviourEnv {
  ctx: SimContext
  /** The pod as first seen by the kubelet. */
  pod: KubeObject
  nodeName: string
  hw(): NodeHardware | undefined
  log(container: string, text: string): void
  podIP(): string | undefined
  /** Whether the pod is still running on its node. */
  alive(): boolean
  /** The container's own files (what it writes; `kubectl exec` and `cp` see and change them too). */
  files(c: ContainerView): Map<string, string>
}

export type BehaviourFactory = (env: BehaviourEnv) => PodBehaviour | undefined

/** The container's command and args as one shell-ish string. */
export function commandText(c: { command?: string[]; args?: string[] } | undefined): string {
  return [...(c?.command ?? []), ...(c?.args ?? [])].join(' ')
}
