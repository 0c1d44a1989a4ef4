// What a component is: every part it must state (desired state, apply, health, placement, drift, hints).
// Docs: docs/design.md#the-stack-as-a-list-of-components.
import type { TokenCredential } from '@azure/core-auth'
import type { ArmClients, KubeconfigResult, PoolPrecheck, SubmittedCreate } from '../azure/index.js'
import type { Log } from '../log/index.js'
import type { HelmReleaseStatus } from '../helm/index.js'
import type { Health, HealthVerdict, SourceSpec } from '../health/types.js'
import type { KubeReader } from '../kube/client.js'
import type { KubeObject } from '../kube/types.js'
import type {
  AzureOperation,
  ComponentKind,
  HelmReleaseSpec,
  KubeManifest,
  Readiness
} from '../model/types.js'
import type { DriftItem } from '../drift/item.js'
import type { Settings } from '../settings/settings.js'
import type { ComponentName } from './order.js'

export type { ComponentName } from './order.js'

/** A component's desired state built from the settings: what plan prints, apply converges, drift compares. */
export interface Desired {
  title: string
  /** ARM operations (the Azure components). */
  azure?: AzureOperation[]
  helm?: HelmReleaseSpec
  /** Applied with server-side apply (field manager aks-rdma-action), in this order. */
  manifests?: KubeManifest[]
  /** Why this differs from the guide, when it does. */
  departsFromGuide?: string
  /** Its version, as the run's summary shows from → to when it changes. */
  version?: ComponentVersion
}

/**
 * A component's version and where the installed one is read: its helm release's chart version
 * (no field), or a field of one of its manifests (the NicClusterPolicy's driver version).
 */
export interface ComponentVersion {
  value: string
  field?: { kind: string; path: string[] }
}

interface Common {
  name: ComponentName
  desired(s: Settings): Desired
  /** Why these settings leave it out (it is still listed, with the reason); undefined when it runs. */
  skip(s: Settings): string | undefined
}

/** What drift compares for an Azure component (ARM reads only). */
export interface ArmDriftContext {
  component: ComponentName
  settings: Settings
  clients: ArmClients
}

/** What applying an Azure component needs: ARM, where to say what happens, its limit, the post step's hooks. */
export interface ArmApplyContext {
  settings: Settings
  clients: ArmClients
  /** The sign-in (the credentials of an Entra ID cluster take a token for its server app). */
  credential: TokenCredential
  log: Log
  timeoutMs: number
  /** The node pool as read before any write: handed over, never read again. */
  precheck?: PoolPrecheck
  /** Saves a create just before its PUT, and withdraws it when ARM refused it: the post step's cleanup. */
  onCreateSubmit(resource: 'cluster' | 'node-pool', submitted: SubmittedCreate): void
  onCreateRefused(resource: 'cluster' | 'node-pool'): void
  /** Where the credentials are written (RUNNER_TEMP). */
  dir: string
}

/** What applying an Azure component did: the step's outcome, and what later phases take from it. */
export interface ArmApplied {
  changed: boolean
  action: 'created' | 'updated' | 'unchanged'
  detail: string
  /** node-pool: what was done to it (the node-pool-action output) and its node count. */
  pool?: { action: string; count: number }
  /** credentials: the kubeconfig written (mode 0600). */
  kubeconfig?: KubeconfigResult
}

/**
 * An Azure component: applied through ARM (its apply calls azure/), ready when that operation
 * reports so (its readiness is prose: the operation's own wait checks it).
 */
export interface ArmComponent extends Common {
  kind: Extract<ComponentKind, 'azure' | 'credentials'>
  desired(s: Settings): Desired & { azure: AzureOperation[] }
  /** Converges it: creates what is missing, reuses what matches, refuses what cannot be used. */
  apply(ctx: ArmApplyContext): Promise<ArmApplied>
  readiness(s: Settings): Readiness
  /** The live resource compared with the desired one. */
  drift(ctx: ArmDriftContext): Promise<DriftItem[]>
}

/** Where a cluster component is ready: on the cluster, or on every node of the RDMA pool after other components there. */
export type Placement = { on: 'cluster' } | { on: 'pool-nodes'; after: readonly ComponentName[] }

/** What drift found for a cluster component before its extras run, and how to read more. */
export interface DriftExtrasContext {
  component: ComponentName
  settings: Settings
  kube: KubeReader
  desired: Desired
  /** The differences found in its manifests and its release. */
  found: DriftItem[]
  /** Its release as read (absent: not installed, or no release). */
  release?: { status?: HelmReleaseStatus; valuePaths: string[] }
}

/** What a failed step's diagnostic saw, for the component's troubleshooting lines. */
export interface DiagnosticView {
  reason: string
  verdict?: HealthVerdict
  /** The objects observed last, by source (nodes, pods, daemonsets, policies ...). */
  snapshot?: Record<string, KubeObject[]>
  /** The reported pods' container states, one per line. */
  states: string
  /** Their log tails. */
  logs: string
}

/** The verification check that applies a component's health rules to one read of the cluster. */
export interface VerifyCheck {
  name: string
  /** Why the check does not apply to these settings (e.g. a VM size without GPUs). */
  skip(s: Settings): string | undefined
}

/**
 * What uninstall does for a cluster component beyond removing its release and the objects it
 * applied (src/components/removal.ts builds the whole of it): what its operator ran, waited for
 * until none is left.
 */
export interface Removal {
  /** Waited for after its objects and release are removed, until none is left. */
  leftovers: SourceSpec[]
  /** Why (the plan and the log say it). */
  note?: string
}

/**
 * Pods of an OnDelete DaemonSet the action replaces itself after it changes the DaemonSet (the
 * controller never does): those whose work is no longer the desired one re-run it.
 */
export interface StalePods {
  pods(s: Settings): SourceSpec
  /** Whether a pod runs what these settings want (a stale one is deleted; its DaemonSet recreates it). */
  current(pod: KubeObject, s: Settings): boolean
  /** What a change does on a running cluster, in words (the plan says it). */
  onChange: string
}

/** A component on the cluster: a helm release and/or manifests, converged by src/stack. */
export interface KubeComponent extends Common {
  kind: Extract<ComponentKind, 'helm' | 'manifests'>
  /** When it is ready: what it watches and its rules, per node and on the cluster. */
  health(s: Settings): Health
  placement: Placement
  /** Drift beyond its manifests and its release: what actually runs. */
  driftExtras(ctx: DriftExtrasContext): Promise<DriftItem[]>
  /** Troubleshooting lines matching what a failed step saw. */
  hints(view: DiagnosticView): string[]
  /** The verification check over its health rules; null: verification does not check it on its own. */
  check: VerifyCheck | null
  /** What uninstall waits for besides its objects and release. */
  removal(s: Settings): Removal
  /**
   * When a change of it on a running cluster makes its operator replace a driver node by node
   * (the driver's upgradePolicy: cordon, drain, restart, uncordon): what rolls, in words. A run
   * that changes it waits for that rollout before writing the next component, so two operators
   * never take nodes out at once.
   */
  rollsDriver?(s: Settings): string
  /** Pods the action replaces itself after changing its OnDelete DaemonSet. */
  stalePods?: StalePods
}

export type Component = ArmComponent | KubeComponent

/** A component with its desired state for given settings, as plan, apply and drift use it. */
export interface ComponentSpec extends Desired {
  name: ComponentName
  kind: ComponentKind
  readiness: Readiness
  /** False when these settings leave the component out (it is still listed, with the reason). */
  enabled: boolean
  skipReason?: string
  /**
   * What a change of it does on a running cluster beyond writing: what its operator replaces node
   * by node (rollsDriver), or which pods the action replaces (stalePods).
   */
  onChange?: string
}

export const noDriftExtras = async (): Promise<DriftItem[]> => []
/** A component whose removal leaves nothing to wait for beyond its own objects. */
export const nothingLeft = (): Removal => ({ leftovers: [] })
export const noHints = (): string[] => []
