// `helm upgrade [--install]`: resolve the chart in the cached repo index, build values, then either
// install (CRDs, ownership check, namespace, pending-install revision, objects, wait, deployed) or
// upgrade (pending-upgrade revision, three-way apply, wait, supersede the previous revision). An
// unchanged upgrade still writes a new revision, as real helm does. Failures mark the revision
// failed; --atomic uninstalls a failed install and rolls back a failed upgrade.
import {
  applyRelease,
  checkConflicts,
  installCrds,
  objKey,
  waitReady,
  withOwnership,
  type ApplyContext
} from './apply.js'
import { CHARTS, type ChartInfo, type ChartVersion } from './charts.js'
import type { HelmContext } from './context.js'
import { parseFlags, type FlagSpec } from './flags.js'
import { KINDS, type KubeObj } from './kube-rest.js'
import { releaseSummary } from './print.js'
import { ReleaseStore, nowStamp, type Release } from './releases.js'
import { parseManifest, manifestText, renderChart } from './render.js'
import { resolveChart } from './repos.js'
import { uninstallRelease } from './uninstall.js'
import { HelmFailure } from './errors.js'
import { coalesce, userValues, type Values } from './values.js'

export const UPGRADE_FLAGS: FlagSpec[] = [
  { name: 'install', short: 'i', kind: 'bool' },
  { name: 'version', kind: 'string' },
  { name: 'create-namespace', kind: 'bool' },
  { name: 'values', short: 'f', kind: 'array' },
  { name: 'set', kind: 'array' },
  { name: 'set-string', kind: 'array' },
  { name: 'wait', kind: 'bool' },
  { name: 'timeout', kind: 'duration' },
  { name: 'atomic', kind: 'bool' },
  { name: 'reuse-values', kind: 'bool' },
  { name: 'reset-values', kind: 'bool' },
  { name: 'history-max', kind: 'int' },
  { name: 'description', kind: 'string' },
  { name: 'cleanup-on-fail', kind: 'bool' },
  { name: 'devel', kind: 'bool' },
  // Accepted as helm accepts it; the simulated charts have no hooks, so it changes nothing here.
  { name: 'no-hooks', kind: 'bool' },
  { name: 'output', short: 'o', kind: 'string' }
]

const RELEASE_NAME_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/

export function validateReleaseName(name: string): void {
  if (!RELEASE_NAME_RE.test(name) || name.length > 53) {
    throw new Error(
      `invalid release name, must match regex ^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$ and the length must not be longer than 53`
    )
  }
}

const NAMESPACE = KINDS.find(k => k.kind === 'Namespace')!

interface Plan {
  name: string
  namespace: string
  chart: ChartInfo
  version: ChartVersion
  config: Values
  wait: boolean
  atomic: boolean
  timeoutMs: number
  description?: string
}

function newRelease(
  plan: Plan,
  revision: number,
  firstDeployed: string,
  status: Release['info']['status']
): Release {
  const values = coalesce(plan.config, plan.chart.defaults(plan.version.version))
  const rendered = renderChart({
    release: plan.name,
    namespace: plan.namespace,
    chart: plan.chart.name,
    version: plan.version.version,
    appVersion: plan.version.appVersion,
    values
  })
  const now = nowStamp()
  return {
    name: plan.name,
    info: {
      first_deployed: firstDeployed || now,
      last_deployed: now,
      deleted: '',
      description: status === 'pending-install' ? 'Initial install underway' : 'Preparing upgrade',
      status,
      notes: `Thank you for installing ${plan.chart.name}.\n`
    },
    chart: {
      metadata: {
        name: plan.chart.name,
        home: plan.chart.home,
        version: plan.version.version,
        description: plan.chart.description,
        apiVersion: 'v2',
        appVersion: plan.version.appVersion,
        kubeVersion: plan.chart.kubeVersion,
        type: 'application'
      },
      lock: null,
      templates: [],
      values: plan.chart.defaults(plan.version.version),
      schema: null,
      files: []
    },
    config: plan.config,
    manifest: manifestText(rendered.templates),
    version: revision,
    namespace: plan.namespace
  }
}

/** The chart's crds/ objects for these values (a disabled subchart contributes none). */
function crdsFor(plan: Plan): KubeObj[] {
  const values = coalesce(plan.config, plan.chart.defaults(plan.version.version))
  return renderChart({
    release: plan.name,
    namespace: plan.namespace,
    chart: plan.chart.name,
    version: plan.version.version,
    appVersion: plan.version.appVersion,
    values
  }).crds
}

function applyContext(ctx: HelmContext, plan: Plan): ApplyContext {
  return {
    kube: ctx.kube,
    release: plan.name,
    namespace: plan.namespace,
    pollMs: ctx.pollMs,
    debug: ctx.debug
  }
}

const ownedObjects = (ac: ApplyContext, rel: Release): KubeObj[] =>
  parseManifest(rel.manifest).map(o => withOwnership(ac, o))

async function install(
  ctx: HelmContext,
  plan: Plan,
  createNamespace: boolean,
  revision: number
): Promise<Release> {
  const store = new ReleaseStore(ctx.kube)
  const ac = applyContext(ctx, plan)
  await installCrds(ac, crdsFor(plan), 60_000)
  const rel = newRelease(plan, revision, '', 'pending-install')
  const objs = ownedObjects(ac, rel)
  await checkConflicts(ac, objs, new Set(), 'install')
  const ns = await ctx.kube.tryGet(NAMESPACE, undefined, plan.namespace)
  if (!ns) {
    if (!createNamespace)
      throw new HelmFailure(`create: failed to create: namespaces "${plan.namespace}" not found`)
    await ctx.kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: plan.namespace } })
  }
  await store.create(rel)
  try {
    await applyRelease(ac, objs, [])
    if (plan.wait) await waitReady(ac, objs, plan.timeoutMs)
  } catch (e) {
    const err = (e as Error).message
    rel.info.status = 'failed'
    rel.info.description = `Release "${plan.name}" failed: ${err}`
    if (plan.atomic) {
      ctx.debug('Install failed and atomic is set, uninstalling release')
      await store.update(rel)
      try {
        await uninstallRelease(ctx, plan.name, plan.namespace, {
          keepHistory: false,
          wait: true,
          timeoutMs: plan.timeoutMs
        })
      } catch (ue) {
        throw new HelmFailure(
          `an error occurred while uninstalling the release. original install error: ${err}: ${(ue as Error).message}`
        )
      }
      throw new HelmFailure(
        `release ${plan.name} failed, and has been uninstalled due to atomic being set: ${err}`
      )
    }
    await store.update(rel)
    throw new HelmFailure(err)
  }
  rel.info.status = 'deployed'
  rel.info.description = plan.description || 'Install complete'
  await store.update(rel)
  return rel
}

async function upgrade(
  ctx: HelmContext,
  plan: Plan,
  history: Release[],
  historyMax: number
): Promise<Release> {
  const store = new ReleaseStore(ctx.kube)
  const ac = applyContext(ctx, plan)
  const last = history[history.length - 1]
  if (last.info.status.startsWith('pending-')) {
    throw new HelmFailure('UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress')
  }
  const deployed = [...history].reverse().find(r => r.info.status === 'deployed')
  const current = deployed ?? last
  const rel = newRelease(plan, last.version + 1, history[0].info.first_deployed, 'pending-upgrade')
  const previous = ownedObjects(ac, current)
  const objs = ownedObjects(ac, rel)
  await checkConflicts(ac, objs, new Set(previous.map(objKey)), 'update')
  await store.create(rel)
  try {
    await applyRelease(ac, objs, previous)
    if (plan.wait) await waitReady(ac, objs, plan.timeoutMs)
  } catch (e) {
    const err = (e as Error).message
    rel.info.status = 'failed'
    rel.info.description = `Upgrade "${plan.name}" failed: ${err}`
    await store.update(rel)
    if (plan.atomic && deployed) {
      ctx.debug('Upgrade failed and atomic is set, rolling back to last successful release')
      try {
        await rollback(ctx, plan, deployed, rel)
      } catch (re) {
        throw new HelmFailure(
          `UPGRADE FAILED: an error occurred while rolling back the release. original upgrade error: ${err}: ${(re as Error).message}`
        )
      }
      throw new HelmFailure(
        `UPGRADE FAILED: release ${plan.name} failed, and has been rolled back due to atomic being set: ${err}`
      )
    }
    throw new HelmFailure(`UPGRADE FAILED: ${err}`)
  }
  for (const r of history) {
    if (r.info.status === 'deployed') {
      r.info.status = 'superseded'
      await store.update(r)
    }
  }
  rel.info.status = 'deployed'
  rel.info.description = plan.description || 'Upgrade complete'
  await store.update(rel)
  await pruneHistory(store, plan, historyMax)
  return rel
}

/** Rolls back to `target` by writing its chart, values and manifest as a new deployed revision. */
async function rollback(ctx: HelmContext, plan: Plan, target: Release, failed: Release): Promise<void> {
  const store = new ReleaseStore(ctx.kube)
  const ac = applyContext(ctx, plan)
  const now = nowStamp()
  const rel: Release = {
    ...structuredClone(target),
    version: failed.version + 1,
    info: {
      ...target.info,
      last_deployed: now,
      status: 'pending-rollback',
      description: `Rollback to ${target.version}`
    }
  }
  await store.create(rel)
  const objs = ownedObjects(ac, rel)
  await applyRelease(ac, objs, ownedObjects(ac, failed))
  await waitReady(ac, objs, plan.timeoutMs)
  for (const r of await store.history(plan.name, plan.namespace)) {
    if (r.info.status === 'deployed') {
      r.info.status = 'superseded'
      await store.update(r)
    }
  }
  rel.info.status = 'deployed'
  await store.update(rel)
}

/** --history-max: keeps at most `max` revisions, deleting the oldest (never the deployed one). */
async function pruneHistory(store: ReleaseStore, plan: Plan, max: number): Promise<void> {
  if (max <= 0) return
  const all = await store.history(plan.name, plan.namespace)
  let excess = all.length - max
  for (const r of all) {
    if (excess <= 0) break
    if (r.info.status === 'deployed') continue
    await store.remove(r)
    excess--
  }
}

/** Values for an upgrade: --reuse-values merges over the old ones; no new values at all reuses the old ones. */
function upgradeValues(flags: Record<string, unknown>, fresh: Values, current: Release | undefined): Values {
  if (!current || flags['reset-values']) return fresh
  const old = current.config ?? {}
  if (flags['reuse-values']) return coalesceUser(fresh, old)
  if (Object.keys(fresh).length === 0) return old
  return fresh
}

function coalesceUser(over: Values, base: Values): Values {
  const out: Values = structuredClone(base)
  for (const [k, v] of Object.entries(over)) {
    const b = out[k]
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && b && typeof b === 'object' && !Array.isArray(b)
        ? coalesceUser(v, b)
        : v
  }
  return out
}

export async function runUpgrade(ctx: HelmContext, argv: string[]): Promise<number> {
  const { args, flags } = parseFlags(argv, UPGRADE_FLAGS)
  if (args.length !== 2) {
    throw new HelmFailure(
      `"helm upgrade" requires 2 arguments\n\nUsage:  helm upgrade [RELEASE] [CHART] [flags]`
    )
  }
  const [name, chartRef] = args
  validateReleaseName(name)
  const namespace = ctx.namespace
  const store = new ReleaseStore(ctx.kube)
  const history = await store.history(name, namespace)
  const last = history[history.length - 1]
  const installing = !last || last.info.status === 'uninstalled'
  if (installing && !flags.install)
    throw new HelmFailure(`UPGRADE FAILED: "${name}" has no deployed releases`)
  const { chart, version } = resolveChart(ctx.paths, chartRef, (flags.version as string) ?? '')
  if (!CHARTS[chart.name]) throw new HelmFailure(`chart ${chart.name} not served`)
  const fresh = userValues(
    (flags.values as string[]) ?? [],
    (flags.set as string[]) ?? [],
    (flags['set-string'] as string[]) ?? []
  )
  const atomic = Boolean(flags.atomic)
  const plan: Plan = {
    name,
    namespace,
    chart,
    version,
    config: installing ? fresh : upgradeValues(flags, fresh, last),
    atomic,
    wait: Boolean(flags.wait) || atomic,
    timeoutMs: (flags.timeout as number | undefined) ?? 300_000,
    description: flags.description as string | undefined
  }
  let rel: Release
  if (installing) {
    if (flags.output !== 'json' && flags.output !== 'yaml')
      ctx.out(`Release "${name}" does not exist. Installing it now.`)
    rel = await install(ctx, plan, Boolean(flags['create-namespace']), last ? last.version + 1 : 1)
  } else {
    const envMax = Number(ctx.env.HELM_MAX_HISTORY)
    const historyMax =
      (flags['history-max'] as number | undefined) ??
      (Number.isFinite(envMax) && ctx.env.HELM_MAX_HISTORY ? envMax : 10)
    rel = await upgrade(ctx, plan, history, historyMax)
    if (flags.output !== 'json' && flags.output !== 'yaml')
      ctx.out(`Release "${name}" has been upgraded. Happy Helming!`)
  }
  if (flags.output === 'json') ctx.out(JSON.stringify(rel))
  else ctx.io.stdout(releaseSummary(rel))
  return 0
}
