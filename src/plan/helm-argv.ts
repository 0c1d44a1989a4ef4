// The helm command lines a release is applied with: the repository add and the pinned
// `upgrade --install` (values passed in a file, never on the command line).
import type { HelmReleaseSpec } from '../model/types.js'

export function helmRepoAddArgv(spec: HelmReleaseSpec): string[] {
  return ['repo', 'add', spec.repo.name, spec.repo.url]
}

export function helmUpgradeArgv(
  spec: HelmReleaseSpec,
  valuesFile: string,
  opts: { timeoutMs?: number } = {}
): string[] {
  return [
    'upgrade',
    '--install',
    spec.release,
    spec.chart,
    '--version',
    spec.version,
    '--namespace',
    spec.namespace,
    '--create-namespace',
    '-f',
    valuesFile,
    '--wait',
    '--timeout',
    `${Math.round((opts.timeoutMs ?? 25 * 60_000) / 1000)}s`
  ]
}
