// `helm uninstall`: marks the release uninstalling, deletes the objects of its manifest in reverse
// install order (CRDs stay, as with helm), optionally waits until they are gone, then deletes every
// revision Secret (or keeps them as `uninstalled` with --keep-history).
import { deleteObject, waitDeleted, withOwnership, type ApplyContext } from './apply.js'
import type { HelmContext } from './context.js'
import { parseFlags, type FlagSpec } from './flags.js'
import { ReleaseStore, nowStamp } from './releases.js'
import { parseManifest } from './render.js'
import { HelmFailure } from './errors.js'

export const UNINSTALL_FLAGS: FlagSpec[] = [
  { name: 'wait', kind: 'bool' },
  { name: 'timeout', kind: 'duration' },
  { name: 'keep-history', kind: 'bool' },
  { name: 'ignore-not-found', kind: 'bool' },
  { name: 'cascade', kind: 'string' },
  { name: 'description', kind: 'string' }
]

export async function uninstallRelease(
  ctx: HelmContext,
  name: string,
  namespace: string,
  opts: { keepHistory: boolean; wait: boolean; timeoutMs: number }
): Promise<boolean> {
  const store = new ReleaseStore(ctx.kube)
  const history = await store.history(name, namespace)
  const last = history[history.length - 1]
  if (!last) return false
  if (last.info.status === 'uninstalled') {
    if (opts.keepHistory) throw new HelmFailure(`uninstall: Release not loaded: ${name}: release: not found`)
    for (const r of history) await store.remove(r)
    return true
  }
  const ac: ApplyContext = { kube: ctx.kube, release: name, namespace, pollMs: ctx.pollMs, debug: ctx.debug }
  last.info.status = 'uninstalling'
  last.info.deleted = nowStamp()
  await store.update(last)
  const objs = parseManifest(last.manifest).map(o => withOwnership(ac, o))
  for (const o of [...objs].reverse()) await deleteObject(ac, o)
  if (opts.wait) await waitDeleted(ac, objs, opts.timeoutMs)
  if (opts.keepHistory) {
    last.info.status = 'uninstalled'
    last.info.description = 'Uninstallation complete'
    await store.update(last)
  } else {
    for (const r of history) await store.remove(r)
  }
  return true
}

export async function runUninstall(ctx: HelmContext, argv: string[]): Promise<number> {
  const { args, flags } = parseFlags(argv, UNINSTALL_FLAGS)
  if (args.length < 1)
    throw new HelmFailure(
      `"helm uninstall" requires at least 1 argument\n\nUsage:  helm uninstall RELEASE_NAME [...] [flags]`
    )
  const namespace = ctx.namespace
  for (const name of args) {
    const found = await uninstallRelease(ctx, name, namespace, {
      keepHistory: Boolean(flags['keep-history']),
      wait: Boolean(flags.wait),
      timeoutMs: (flags.timeout as number | undefined) ?? 300_000
    })
    if (!found) {
      if (flags['ignore-not-found']) continue
      throw new HelmFailure(`uninstall: Release not loaded: ${name}: release: not found`)
    }
    ctx.out(`release "${name}" uninstalled`)
  }
  return 0
}
