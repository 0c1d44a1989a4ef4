// The helm stand-in: a helm 3 command line (version, repo add/update/list, upgrade --install, status,
// get values/manifest, history, list, uninstall, template) that talks to the simulated API server
// through the kubeconfig exactly as helm would, and stores releases the way helm does. The
// simulator exposes it as a `helm` executable on PATH (`node dist/cli.js __helm …`).
import { HelmContext, type HelmIo } from './context.js'
import { HelmFailure } from './errors.js'
import { FlagError, GLOBAL_FLAGS, parseFlags, type FlagValues } from './flags.js'
import { runGet, runHistory, runList, runStatus } from './query.js'
import { readRepos, repoAdd, repoUpdate } from './repos.js'
import { runTemplate } from './template.js'
import { runUninstall } from './uninstall.js'
import { runUpgrade } from './upgrade.js'

export { helmReleaseCounts } from './releases.js'
export { HELM_STANDIN_TIME_SCALE_ENV } from './context.js'

/** The helm version the stand-in reports. */
export const HELM_STANDIN_VERSION = 'v3.19.0'
const GIT_COMMIT = '3d8990f0836691f0229297773f3524598f46bda6'
const GO_VERSION = 'go1.24.7'

const BUILD_INFO: Record<string, string> = {
  Version: HELM_STANDIN_VERSION,
  GitCommit: GIT_COMMIT,
  GitTreeState: 'clean',
  GoVersion: GO_VERSION
}

const USAGE = `The Kubernetes package manager

Usage:
  helm [command]

Available Commands:
  get         download extended information of a named release
  history     fetch release history
  list        list releases
  repo        add, list, remove, update, and index chart repositories
  status      display the status of the named release
  template    locally render templates
  uninstall   uninstall a release
  upgrade     upgrade a release
  version     print the client version information

Use "helm [command] --help" for more information about a command.
`

/** Go text/template subset for `helm version --template`: `{{.Field}}` over version.BuildInfo. */
function renderVersionTemplate(tpl: string): string {
  return tpl.replace(/\{\{-?\s*\.(\w+)\s*-?\}\}/g, (_m, field: string) => {
    if (!(field in BUILD_INFO)) {
      throw new HelmFailure(
        `template: _:1:2: executing "_" at <.${field}>: can't evaluate field ${field} in type version.BuildInfo`
      )
    }
    return BUILD_INFO[field]
  })
}

function runVersion(ctx: HelmContext, argv: string[]): number {
  const { flags } = parseFlags(argv, [
    { name: 'short', kind: 'bool' },
    { name: 'template', kind: 'string' },
    { name: 'client', short: 'c', kind: 'bool' }
  ])
  if (flags.template) {
    ctx.io.stdout(renderVersionTemplate(flags.template as string))
    return 0
  }
  if (flags.short) ctx.out(`${HELM_STANDIN_VERSION}+g${GIT_COMMIT.slice(0, 7)}`)
  else {
    ctx.out(
      `version.BuildInfo{Version:"${HELM_STANDIN_VERSION}", GitCommit:"${GIT_COMMIT}", GitTreeState:"clean", GoVersion:"${GO_VERSION}"}`
    )
  }
  return 0
}

function runRepo(ctx: HelmContext, argv: string[]): number {
  const [sub, ...rest] = argv
  if (sub === 'add') {
    const { args, flags } = parseFlags(rest, [
      { name: 'force-update', kind: 'bool' },
      { name: 'no-update', kind: 'bool' },
      { name: 'username', kind: 'string' },
      { name: 'password', kind: 'string' },
      { name: 'pass-credentials', kind: 'bool' },
      { name: 'insecure-skip-tls-verify', kind: 'bool' }
    ])
    if (args.length !== 2)
      throw new HelmFailure(
        `"helm repo add" requires 2 arguments\n\nUsage:  helm repo add [NAME] [URL] [flags]`
      )
    ctx.out(repoAdd(ctx.paths, args[0], args[1], Boolean(flags['force-update'])))
    return 0
  }
  if (sub === 'update' || sub === 'up') {
    const { args } = parseFlags(rest, [{ name: 'fail-on-repo-update-fail', kind: 'bool' }])
    for (const line of repoUpdate(ctx.paths, args)) ctx.out(line)
    return 0
  }
  if (sub === 'list' || sub === 'ls') {
    const { flags } = parseFlags(rest, [{ name: 'output', short: 'o', kind: 'string' }])
    const repos = readRepos(ctx.paths)
    if (repos.length === 0) throw new HelmFailure('no repositories to show')
    if (flags.output === 'json') ctx.out(JSON.stringify(repos))
    else {
      ctx.out('NAME\tURL')
      for (const r of repos) ctx.out(`${r.name}\t${r.url}`)
    }
    return 0
  }
  throw new HelmFailure(`unknown command "${sub ?? ''}" for "helm repo"`)
}

/**
 * Finds the command word (the first positional) and the global flags given anywhere, so that
 * `helm -n ns status x` and `helm status x -n ns` both work; the command parses the rest itself.
 */
function splitCommand(argv: string[]): { command?: string; globals: FlagValues; rest: string[] } {
  const globals: FlagValues = {}
  let commandAt = -1
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--') break
    if (!a.startsWith('-') || a === '-') {
      if (commandAt < 0) commandAt = i
      continue
    }
    const long = a.startsWith('--')
    const eq = a.indexOf('=')
    const name = long ? a.slice(2, eq >= 0 ? eq : undefined) : a.slice(1, 2)
    const spec = GLOBAL_FLAGS.find(f => (long ? f.name === name : f.short === name))
    if (!spec) continue
    if (spec.kind === 'bool') {
      globals[spec.name] = eq >= 0 ? a.slice(eq + 1) !== 'false' : true
      continue
    }
    if (long && eq >= 0) globals[spec.name] = a.slice(eq + 1)
    else if (!long && a.length > 2) globals[spec.name] = a.slice(2).replace(/^=/, '')
    else if (i + 1 < argv.length) globals[spec.name] = argv[++i]
  }
  if (commandAt < 0) return { globals, rest: argv }
  return {
    command: argv[commandAt],
    globals,
    rest: [...argv.slice(0, commandAt), ...argv.slice(commandAt + 1)]
  }
}

/** Runs one helm invocation; returns its exit code (0 ok, 1 error, as helm). */
export async function helmStandin(argv: string[], env: NodeJS.ProcessEnv, io: HelmIo): Promise<number> {
  const { command, globals, rest } = splitCommand(argv)
  const ctx = new HelmContext(env, io, globals)
  try {
    if (!command) {
      io.stdout(USAGE)
      return 0
    }
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout(USAGE)
      return 0
    }
    switch (command) {
      case 'version':
        return runVersion(ctx, rest)
      case 'repo':
        return runRepo(ctx, rest)
      case 'upgrade':
        return await runUpgrade(ctx, rest)
      case 'status':
        return await runStatus(ctx, rest)
      case 'get':
        return await runGet(ctx, rest)
      case 'list':
      case 'ls':
        return await runList(ctx, rest)
      case 'history':
      case 'hist':
        return await runHistory(ctx, rest)
      case 'template':
        return runTemplate(ctx, rest)
      case 'uninstall':
      case 'delete':
      case 'del':
      case 'un':
        return await runUninstall(ctx, rest)
      default:
        io.stderr(`Error: unknown command "${command}" for "helm"\nRun 'helm --help' for usage.\n`)
        return 1
    }
  } catch (e) {
    const message = e instanceof FlagError || e instanceof HelmFailure ? e.message : (e as Error).message
    io.stderr(`Error: ${message}\n`)
    return 1
  }
}
