// The run's Azure phases: sign-in, the given kubeconfig's cluster check, the node pool's precheck,
// then the Azure components applied in stack order (the feature, the cluster, the node pool) —
// each component's own apply (src/components/), this module only runs them as steps.
import { checkKubeconfigCluster, connectAzure, precheckNodePool } from '../azure/index.js'
import { ClusterNotFoundError } from '../azure/cluster-missing.js'
import { COMPONENTS, type ArmApplyContext, type ArmComponent } from '../components/index.js'
import { log } from '../log/index.js'
import { resolveKubeconfig } from '../settings/kubeconfig.js'
import { usesAzure } from '../settings/settings.js'
import type { Phase, RunContext } from './phase.js'
import { forgetCreateSubmitted, rememberCreateSubmitted } from './saved-state.js'
import { runStep } from './steps.js'

/** Azure sign-in: every mode but a kubeconfig given to verify (or to drift without subscription-id). */
export const signIn: Phase = {
  name: 'azure-sign-in',
  modes: ['apply', 'verify', 'drift', 'uninstall'],
  when: ctx => usesAzure(ctx.s),
  run: async (ctx, part) => {
    await runStep(part.steps, 'azure-sign-in', 'authenticate to Azure', async () => {
      const c = connectAzure(ctx.s, log)
      ctx.conn = c
      return { changed: false, detail: `credential: ${c.auth.method}` }
    })
  }
}

/**
 * With a kubeconfig given and an Azure cluster named, before any write: the kubeconfig's server
 * must be one the named cluster answers on, or the run would change one cluster's objects and
 * another's Azure resources. The kubeconfig as read is handed to the credentials phase.
 */
export const kubeconfigCluster: Phase = {
  name: 'kubeconfig-cluster',
  modes: ['apply', 'verify', 'drift', 'uninstall'],
  when: ctx => !!ctx.conn && !!ctx.s.cluster.kubeconfig,
  run: async (ctx, part) => {
    const { resourceGroup, name } = ctx.s.cluster
    await runStep(
      part.steps,
      'kubeconfig-cluster',
      `the given kubeconfig reaches cluster ${resourceGroup}/${name}`,
      async () => {
        const r = resolveKubeconfig(ctx.s.cluster.kubeconfig!)
        for (const secret of r.secrets) log.secret(secret)
        const match = await checkKubeconfigCluster(ctx.conn!.clients, ctx.s, {
          context: r.context,
          server: r.server
        })
        ctx.checked = r
        return {
          changed: false,
          detail: `context ${r.context} reaches https://${match.address}, the cluster's ${match.property}`
        }
      }
    )
  }
}

/**
 * Before any write, ARM or Kubernetes: whether the node pool exists and can be used (one GET). A
 * refusal fails the node-pool step here (a missing cluster, the cluster step), so nothing is
 * written at all; otherwise the finding is handed to the node pool's apply (no second read).
 */
export const poolPrecheck: Phase = {
  name: 'pool-precheck',
  modes: ['apply'],
  run: async (ctx, part) => {
    const s = ctx.s
    try {
      ctx.precheck = await precheckNodePool(ctx.conn!.clients, s, { log })
    } catch (e) {
      if (e instanceof ClusterNotFoundError)
        await runStep(part.steps, 'cluster', `cluster ${s.cluster.resourceGroup}/${s.cluster.name}`, () =>
          Promise.reject(e)
        )
      else await runStep(part.steps, 'node-pool', `node pool ${s.nodePool.name}`, () => Promise.reject(e))
      throw e
    }
  }
}

/** What an Azure component's apply is given in this run. */
export function armApplyContext(ctx: RunContext, dir: string): ArmApplyContext {
  return {
    settings: ctx.s,
    clients: ctx.conn!.clients,
    credential: ctx.conn!.auth.credential,
    log,
    timeoutMs: ctx.s.wait.stepTimeoutMs,
    precheck: ctx.precheck,
    onCreateSubmit: rememberCreateSubmitted,
    onCreateRefused: forgetCreateSubmitted,
    dir
  }
}

/** One Azure component applied as a step of apply mode, unless its settings leave it out. */
function armPhase(component: ArmComponent, title: (ctx: RunContext) => string): Phase {
  return {
    name: component.name,
    modes: ['apply'],
    when: ctx => component.skip(ctx.s) === undefined,
    run: async (ctx, part) => {
      await runStep(part.steps, component.name, title(ctx), () => component.apply(armApplyContext(ctx, '')))
    }
  }
}

export const infinibandFeature = armPhase(
  COMPONENTS['infiniband-feature'],
  () => 'register Microsoft.ContainerService/AKSInfinibandSupport'
)

export const cluster = armPhase(
  COMPONENTS.cluster,
  ctx => `cluster ${ctx.s.cluster.resourceGroup}/${ctx.s.cluster.name}`
)

/**
 * The node pool. Sequential rollout waits for it here; pipelined rollout leaves it going (the
 * cluster and its system pool exist, so credentials and the system-level components need not wait)
 * and the stack waits for its size; its step lands in this phase's part when it ends.
 */
export const nodePool: Phase = {
  name: 'node-pool',
  modes: ['apply'],
  run: async (ctx, part) => {
    const s = ctx.s
    let provisioned!: (p: { count: number }) => void
    const info = new Promise<{ count: number }>(resolve => (provisioned = resolve))
    const done = runStep(part.steps, 'node-pool', `node pool ${s.nodePool.name}`, async () => {
      const r = await COMPONENTS['node-pool'].apply(armApplyContext(ctx, ''))
      ctx.poolAction = r.pool!.action
      part.outputs['node-pool-action'] = r.pool!.action
      provisioned({ count: r.pool!.count })
      return r
    })
    ctx.pool = { done, info: Promise.race([info, done.then(() => info)]) }
    ctx.pool.info.catch(() => undefined) // the failure is the node-pool step's, reported when settled
    if (s.wait.rollout === 'sequential') await done
  }
}

/** Waits for a node pool step still going on; rethrows its failure. */
export async function settlePool(ctx: RunContext): Promise<void> {
  await ctx.pool?.done
}
