// The helm command line as the action uses it (repo, status, values, upgrade --install, template,
// uninstall). Output is captured silently; errors carry helm's stderr, never values.
import { getExecOutput } from '@actions/exec'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseAllDocuments } from 'yaml'
import { log as processLog, type Log } from '../log/index.js'

export interface HelmOptions {
  /** Path of the helm binary (from ensureHelm). */
  helmPath: string
  /** Kubeconfig file helm uses (sets KUBECONFIG for every call); default: inherited environment. */
  kubeconfig?: string
  /** Extra environment for helm (e.g. HELM_CONFIG_HOME / HELM_CACHE_HOME to keep repos out of $HOME). */
  env?: Record<string, string>
  /** Debug lines (default: the process-wide log). Never receives values. */
  log?: Log
}

export interface HelmReleaseStatus {
  chartName: string
  chartVersion: string
  appVersion?: string
  revision: number
  /** deployed, failed, superseded, pending-install, pending-upgrade, … */
  status: string
  /** When the release was first installed (helm keeps it across upgrades): its identity with its name. */
  firstDeployed?: string
}

export interface UpgradeInstallOptions {
  release: string
  /** `repo/chart`, e.g. `nvidia/gpu-operator`. */
  chart: string
  version: string
  namespace: string
  values: Record<string, unknown>
  createNamespace?: boolean
  wait?: boolean
  timeoutMs?: number
  atomic?: boolean
  /** `--no-hooks`: the chart's pre/post-upgrade hooks do not run (a downgrade that keeps newer CRDs). */
  noHooks?: boolean
}

/** A helm invocation that exited non-zero. */
export class HelmCommandError extends Error {
  constructor(
    readonly argv: string[],
    readonly exitCode: number,
    readonly stderr: string
  ) {
    super(
      `helm ${argv.join(' ')} failed (exit ${exitCode}): ${stderr.trim().slice(0, 2000) || 'no error output'}`
    )
  }
}

/** Placeholder for the values file in plan output. */
export const PLAN_VALUES_FILE = '<values.json>'

/** Values go to a private temp file (0600) passed with `-f`, never on the command line. */
export class Helm {
  private readonly log: Log

  constructor(private readonly opts: HelmOptions) {
    this.log = opts.log ?? processLog
  }

  private env(): Record<string, string> {
    const base: Record<string, string> = {}
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) base[k] = v
    return {
      ...base,
      ...(this.opts.kubeconfig ? { KUBECONFIG: this.opts.kubeconfig } : {}),
      ...(this.opts.env ?? {})
    }
  }

  /** Runs helm; resolves with its output whatever the exit code. */
  async run(argv: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
    this.log.debug(`helm ${argv.join(' ')}`)
    return getExecOutput(this.opts.helmPath, argv, { silent: true, ignoreReturnCode: true, env: this.env() })
  }

  private async runOk(argv: string[]): Promise<string> {
    const r = await this.run(argv)
    if (r.exitCode !== 0) throw new HelmCommandError(argv, r.exitCode, r.stderr)
    return r.stdout
  }

  /** `helm version --template {{.Version}}`. */
  async version(): Promise<string> {
    return (await this.runOk(['version', '--template', '{{.Version}}'])).trim()
  }

  /**
   * `helm repo add NAME URL`. Idempotent: helm itself skips a repo already present with the same URL.
   * A repo of that name pointing elsewhere is an error (it is not silently overwritten).
   */
  async repoAdd(name: string, url: string): Promise<void> {
    const argv = ['repo', 'add', name, url]
    const r = await this.run(argv)
    if (r.exitCode === 0) return
    if (/already exists, please specify a different name/.test(r.stderr)) {
      const list = await this.run(['repo', 'list', '-o', 'json'])
      let current = 'another URL'
      try {
        current =
          (JSON.parse(list.stdout) as Array<{ name: string; url: string }>).find(x => x.name === name)?.url ??
          current
      } catch {
        // keep the generic wording
      }
      throw new Error(
        `helm repository "${name}" already points to ${current}, not ${url}. Remove it (helm repo remove ${name}) or give this runner a separate HELM_CONFIG_HOME.`
      )
    }
    throw new HelmCommandError(argv, r.exitCode, r.stderr)
  }

  /** `helm repo update [NAME…]`. */
  async repoUpdate(names: string[] = []): Promise<void> {
    await this.runOk(['repo', 'update', ...names])
  }

  /** The release's latest revision, or undefined when helm reports `release: not found`. */
  async status(release: string, namespace: string): Promise<HelmReleaseStatus | undefined> {
    const argv = ['status', release, '--namespace', namespace, '--output', 'json']
    const r = await this.run(argv)
    if (r.exitCode !== 0) {
      if (/release: not found/.test(r.stderr)) return undefined
      throw new HelmCommandError(argv, r.exitCode, r.stderr)
    }
    const rel = JSON.parse(r.stdout) as {
      version: number
      info?: { status?: string; first_deployed?: string }
      chart?: { metadata?: { name?: string; version?: string; appVersion?: string } }
    }
    return {
      chartName: rel.chart?.metadata?.name ?? '',
      chartVersion: rel.chart?.metadata?.version ?? '',
      appVersion: rel.chart?.metadata?.appVersion,
      revision: rel.version,
      status: rel.info?.status ?? 'unknown',
      ...(rel.info?.first_deployed ? { firstDeployed: rel.info.first_deployed } : {})
    }
  }

  /** The user-supplied values of the release (`{}` when none were given). */
  async getValues(release: string, namespace: string): Promise<Record<string, unknown>> {
    const out = await this.runOk(['get', 'values', release, '--namespace', namespace, '--output', 'json'])
    const v = JSON.parse(out || 'null') as Record<string, unknown> | null
    return v ?? {}
  }

  /** The argv `upgradeInstall` runs, with `valuesFile` in place of its private temp file. */
  planArgv(o: UpgradeInstallOptions, valuesFile = PLAN_VALUES_FILE): string[] {
    const argv = [
      'upgrade',
      '--install',
      o.release,
      o.chart,
      '--version',
      o.version,
      '--namespace',
      o.namespace
    ]
    if (o.createNamespace) argv.push('--create-namespace')
    argv.push('--values', valuesFile)
    if (o.wait) argv.push('--wait')
    if (o.atomic) argv.push('--atomic')
    if (o.noHooks) argv.push('--no-hooks')
    if (o.timeoutMs !== undefined) argv.push('--timeout', `${Math.max(1, Math.ceil(o.timeoutMs / 1000))}s`)
    return argv
  }

  /**
   * `helm uninstall --wait --timeout`: removes the release's objects (helm keeps the CRDs of its
   * crds/ folder, as it always does) and waits until they are gone. False when there was no such
   * release.
   */
  async uninstall(release: string, namespace: string, timeoutMs: number): Promise<boolean> {
    const argv = [
      'uninstall',
      release,
      '--namespace',
      namespace,
      '--wait',
      '--timeout',
      `${Math.max(1, Math.ceil(timeoutMs / 1000))}s`
    ]
    const r = await this.run(argv)
    if (r.exitCode === 0) return true
    if (/release: not found/.test(r.stderr)) return false
    throw new HelmCommandError(argv, r.exitCode, r.stderr)
  }

  /**
   * The CustomResourceDefinitions an install of this chart version with these values would create
   * (`helm template --include-crds`: the chart's crds/ folders, its enabled subcharts' included),
   * as YAML documents. Renders only; nothing is sent to the cluster.
   */
  async chartCrds(
    o: Omit<UpgradeInstallOptions, 'createNamespace' | 'wait' | 'timeoutMs' | 'atomic' | 'noHooks'>
  ) {
    const dir = mkdtempSync(path.join(process.env.RUNNER_TEMP || tmpdir(), 'helm-values-'))
    const file = path.join(dir, `${o.release}.json`)
    try {
      writeFileSync(file, JSON.stringify(o.values ?? {}, null, 2), { mode: 0o600 })
      return crdDocuments(await this.runOk(templateCrdsArgv(o, file)))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  /** `helm upgrade --install` with the values in a 0600 temp file (removed afterwards); returns the new status. */
  async upgradeInstall(o: UpgradeInstallOptions): Promise<HelmReleaseStatus> {
    const dir = mkdtempSync(path.join(process.env.RUNNER_TEMP || tmpdir(), 'helm-values-'))
    const file = path.join(dir, `${o.release}.json`)
    try {
      // JSON is YAML that helm reads without YAML 1.1 surprises (`on`, `yes`, `0777` stay as given).
      writeFileSync(file, JSON.stringify(o.values ?? {}, null, 2), { mode: 0o600 })
      await this.runOk(this.planArgv(o, file))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    const st = await this.status(o.release, o.namespace)
    if (!st)
      throw new Error(`helm reported success but release ${o.release} is not in namespace ${o.namespace}`)
    return st
  }
}

/** The argv of `helm template --include-crds`: what an install of the chart version renders, its CRDs first. */
export function templateCrdsArgv(
  o: Pick<UpgradeInstallOptions, 'release' | 'chart' | 'version' | 'namespace'>,
  valuesFile: string
): string[] {
  return [
    'template',
    o.release,
    o.chart,
    '--version',
    o.version,
    '--namespace',
    o.namespace,
    '--values',
    valuesFile,
    '--include-crds'
  ]
}

/** The CustomResourceDefinition documents of a multi-document YAML stream (helm template's output). */
export function crdDocuments(text: string): Array<Record<string, any>> {
  return parseAllDocuments(text)
    .map(d => (Array.isArray(d) ? null : d.toJS()))
    .filter(
      (o): o is Record<string, any> =>
        typeof o === 'object' && o !== null && o.kind === 'CustomResourceDefinition' && !!o.metadata?.name
    )
}
