// Read-only helm commands over stored releases: `status`, `get values`, `get manifest`, `list`,
// `history`, with helm's table / json / yaml outputs and its `release: not found` error.
import { stringify } from 'yaml'
import type { HelmContext } from './context.js'
import { HelmFailure } from './errors.js'
import { parseFlags, type FlagSpec } from './flags.js'
import { goTimeString, releaseSummary } from './print.js'
import { ReleaseStore, type Release } from './releases.js'
import { coalesce } from './values.js'
import { CHARTS } from './charts.js'

const OUTPUT: FlagSpec = { name: 'output', short: 'o', kind: 'string' }
const REVISION: FlagSpec = { name: 'revision', kind: 'int' }

function checkOutput(o: unknown): 'table' | 'json' | 'yaml' {
  const v = (o as string | undefined) ?? 'table'
  if (v !== 'table' && v !== 'json' && v !== 'yaml') {
    throw new HelmFailure(`invalid argument "${v}" for "-o, --output" flag: invalid format type`)
  }
  return v
}

async function loadRelease(ctx: HelmContext, name: string, revision?: number): Promise<Release> {
  const history = await new ReleaseStore(ctx.kube).history(name, ctx.namespace)
  const rel = revision ? history.find(r => r.version === revision) : history[history.length - 1]
  if (!rel) throw new HelmFailure('release: not found')
  return rel
}

function emit(ctx: HelmContext, format: 'json' | 'yaml', value: unknown): void {
  if (format === 'json') ctx.out(JSON.stringify(value))
  else ctx.io.stdout(stringify(value))
}

export async function runStatus(ctx: HelmContext, argv: string[]): Promise<number> {
  const { args, flags } = parseFlags(argv, [OUTPUT, REVISION, { name: 'show-desc', kind: 'bool' }])
  if (args.length !== 1)
    throw new HelmFailure(`"helm status" requires 1 argument\n\nUsage:  helm status RELEASE_NAME [flags]`)
  const format = checkOutput(flags.output)
  const rel = await loadRelease(ctx, args[0], flags.revision as number | undefined)
  if (format === 'table') {
    ctx.io.stdout(releaseSummary(rel))
    if (flags['show-desc']) ctx.out(`DESCRIPTION: ${rel.info.description}`)
  } else emit(ctx, format, rel)
  return 0
}

export async function runGet(ctx: HelmContext, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv
  if (sub === 'values') {
    const { args, flags } = parseFlags(rest, [OUTPUT, REVISION, { name: 'all', short: 'a', kind: 'bool' }])
    if (args.length !== 1)
      throw new HelmFailure(
        `"helm get values" requires 1 argument\n\nUsage:  helm get values RELEASE_NAME [flags]`
      )
    const format = checkOutput(flags.output)
    const rel = await loadRelease(ctx, args[0], flags.revision as number | undefined)
    const chart = CHARTS[rel.chart.metadata.name]
    const all = Boolean(flags.all)
    const values = all
      ? coalesce(rel.config ?? {}, chart ? chart.defaults(rel.chart.metadata.version) : rel.chart.values)
      : rel.config
    const shown = values && Object.keys(values).length ? values : null
    if (format === 'table') {
      ctx.out(all ? 'COMPUTED VALUES:' : 'USER-SUPPLIED VALUES:')
      ctx.io.stdout(stringify(shown))
    } else emit(ctx, format, shown)
    return 0
  }
  if (sub === 'manifest') {
    const { args, flags } = parseFlags(rest, [REVISION])
    if (args.length !== 1) throw new HelmFailure(`"helm get manifest" requires 1 argument`)
    const rel = await loadRelease(ctx, args[0], flags.revision as number | undefined)
    ctx.io.stdout(rel.manifest)
    return 0
  }
  throw new HelmFailure(`unknown command "${sub ?? ''}" for "helm get"`)
}

export async function runHistory(ctx: HelmContext, argv: string[]): Promise<number> {
  const { args, flags } = parseFlags(argv, [OUTPUT, { name: 'max', kind: 'int' }])
  if (args.length !== 1) throw new HelmFailure(`"helm history" requires 1 argument`)
  const format = checkOutput(flags.output)
  const history = await new ReleaseStore(ctx.kube).history(args[0], ctx.namespace)
  if (!history.length) throw new HelmFailure('release: not found')
  const rows = history.map(r => ({
    revision: r.version,
    updated: r.info.last_deployed,
    status: r.info.status,
    chart: `${r.chart.metadata.name}-${r.chart.metadata.version}`,
    app_version: r.chart.metadata.appVersion,
    description: r.info.description
  }))
  if (format !== 'table') emit(ctx, format, rows)
  else {
    ctx.out('REVISION\tUPDATED\tSTATUS\tCHART\tAPP VERSION\tDESCRIPTION')
    for (const r of rows)
      ctx.out(`${r.revision}\t${r.updated}\t${r.status}\t${r.chart}\t${r.app_version}\t${r.description}`)
  }
  return 0
}

export async function runList(ctx: HelmContext, argv: string[]): Promise<number> {
  const { flags } = parseFlags(argv, [
    OUTPUT,
    { name: 'all-namespaces', short: 'A', kind: 'bool' },
    { name: 'all', short: 'a', kind: 'bool' },
    { name: 'filter', short: 'f', kind: 'string' },
    { name: 'short', short: 'q', kind: 'bool' },
    { name: 'deployed', kind: 'bool' },
    { name: 'failed', kind: 'bool' },
    { name: 'pending', kind: 'bool' },
    { name: 'uninstalled', kind: 'bool' },
    { name: 'superseded', kind: 'bool' }
  ])
  const format = checkOutput(flags.output)
  const releases = await new ReleaseStore(ctx.kube).all(flags['all-namespaces'] ? undefined : ctx.namespace)
  const latest = new Map<string, Release>()
  for (const r of releases) {
    const key = `${r.namespace}/${r.name}`
    const prev = latest.get(key)
    if (!prev || prev.version < r.version) latest.set(key, r)
  }
  const wanted = new Set<string>()
  for (const s of ['deployed', 'failed', 'uninstalled', 'superseded']) if (flags[s]) wanted.add(s)
  if (flags.pending) ['pending-install', 'pending-upgrade', 'pending-rollback'].forEach(s => wanted.add(s))
  if (wanted.size === 0) ['deployed', 'failed'].forEach(s => wanted.add(s))
  const filter = flags.filter ? new RegExp(flags.filter as string) : undefined
  const shown = [...latest.values()]
    .filter(r => flags.all || wanted.has(r.info.status))
    .filter(r => !filter || filter.test(r.name))
    .sort((a, b) => a.name.localeCompare(b.name))
  const rows = shown.map(r => ({
    name: r.name,
    namespace: r.namespace,
    revision: String(r.version),
    updated: goTimeString(r.info.last_deployed),
    status: r.info.status,
    chart: `${r.chart.metadata.name}-${r.chart.metadata.version}`,
    app_version: r.chart.metadata.appVersion
  }))
  if (flags.short) {
    for (const r of rows) ctx.out(r.name)
    return 0
  }
  if (format !== 'table') emit(ctx, format, rows)
  else {
    ctx.out('NAME\tNAMESPACE\tREVISION\tUPDATED\tSTATUS\tCHART\tAPP VERSION')
    for (const r of rows)
      ctx.out([r.name, r.namespace, r.revision, r.updated, r.status, r.chart, r.app_version].join('\t'))
  }
  return 0
}
