// The CLI's commands (dist/cli.js): the action's modes, the simulator and the perftest/ibstat parsers.
// Flags, output streams and exit codes: docs/running-locally.md.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { EXIT } from '../src/exit-codes.js'
import { log } from '../src/log/index.js'
import { startSession, type TerminalSession } from '../src/log/terminal-session.js'
import { FileInputError, readBoundedFile } from '../src/util/files.js'
import { exportInputs, secretInputValues } from '../src/run/inputs.js'
import { defaultKubeconfig, defaultSubscription, logDefault } from './local-context.js'
import { CA_REEXEC_ENV, loadInputsFile } from './inputs-file.js'
import { nodeReadArgument } from './node-argv.js'
import type { ReadOnlyLook } from './read-only.js'
import { COMMANDS, commandSpec, editDistance, parseCommand, UsageError, type ParsedCommand } from './flags.js'
import { commandHelp, mainHelp } from './help.js'
import { needsModernNode } from './node-version.js'
import { cliVersion } from './version.js'

const MODES = ['apply', 'verify', 'drift', 'plan', 'uninstall'] as const

/** The largest tool output `perftest parse` / `ibstat parse` read from a file. */
const PARSER_MAX_BYTES = 16 * 1024 * 1024
type Mode = (typeof MODES)[number]

function usageError(message: string): number {
  process.stderr.write(`${message}\n`)
  return EXIT.usage
}

/** Runs this command again with NODE_EXTRA_CA_CERTS set (a Node without tls.setDefaultCACertificates). */
function rerunWithCa(argv: string[]): Promise<number> {
  const ca = process.env.NODE_EXTRA_CA_CERTS!
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1], ...argv], {
    stdio: 'inherit',
    env: { ...process.env, NODE_EXTRA_CA_CERTS: ca, [CA_REEXEC_ENV]: ca }
  })
  return new Promise(resolve => child.on('close', code => resolve(code ?? EXIT.failure)))
}

async function runMode(mode: Mode, p: ParsedCommand, session: TerminalSession): Promise<number> {
  const output = (p.options.output as 'text' | 'json' | undefined) ?? 'text'
  if (mode === 'uninstall' && p.options['dry-run'] === true) return runLook('uninstall-preview', p, session)
  const planMode: Record<string, string> =
    mode === 'plan' ? { 'plan-mode': (p.options.mode as string | undefined) ?? 'apply' } : {}
  const kube = defaultKubeconfig(mode, p.inputs)
  const subscription = defaultSubscription(mode, { ...kube.inputs, ...p.inputs })
  exportInputs({ ...kube.inputs, ...subscription.inputs, ...p.inputs, mode, ...planMode })
  // Secret inputs are hidden before anything could print them.
  for (const s of secretInputValues()) session.terminal?.secret(s)
  for (const d of [kube, subscription]) logDefault(d, log, s => session.terminal?.secret(s))
  if (mode === 'plan') {
    const { runMain } = await import('../src/main.js')
    return runMain({ output, cli: true, print: text => session.result(text) })
  }
  const { runLikeRunner } = await import('./local-runner.js')
  return runLikeRunner({ output, print: text => session.result(text) })
}

/** status and uninstall --dry-run: read-only looks at the live cluster (read-only.ts). */
async function runLook(look: ReadOnlyLook, p: ParsedCommand, session: TerminalSession): Promise<number> {
  const output = (p.options.output as 'text' | 'json' | undefined) ?? 'text'
  const kube = defaultKubeconfig(look, p.inputs)
  const subscription = defaultSubscription(look, { ...kube.inputs, ...p.inputs })
  // Settings are read as the mode whose inputs the look takes (the preview: uninstall's).
  const mode = look === 'status' ? 'drift' : 'uninstall'
  exportInputs({ ...kube.inputs, ...subscription.inputs, ...p.inputs, mode })
  for (const s of secretInputValues()) session.terminal?.secret(s)
  for (const d of [kube, subscription]) logDefault(d, log, s => session.terminal?.secret(s))
  const { runReadOnly } = await import('./read-only.js')
  return runReadOnly(look, output, text => session.result(text))
}

async function runParser(tool: 'perftest' | 'ibstat', p: ParsedCommand): Promise<number> {
  const file = p.positional!
  let text: string
  try {
    // A file: only a regular one, of bounded size (never a FIFO or a device that would never end).
    text = file === '-' ? readFileSync(0, 'utf8') : readBoundedFile(file, PARSER_MAX_BYTES)
  } catch (e) {
    if (e instanceof FileInputError) return usageError(`${tool} parse: ${e.message}`)
    return usageError(`${tool} parse: ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`)
  }
  const r =
    tool === 'perftest'
      ? (await import('../src/parse/perftest.js')).perftestCliResult(text, {
          ...(typeof p.options.tool === 'string' ? { tool: p.options.tool } : {})
        })
      : (await import('../src/parse/ibstat.js')).ibstatCliResult(text)
  if (r.json) process.stdout.write(r.json)
  if (r.message) process.stderr.write(`${tool} parse: ${r.message}\n`)
  return r.exitCode
}

/** `sim`, `perftest`, `ibstat` take a second word. */
function resolveCommand(argv: string[]): { name: string; rest: string[] } {
  const [first, second] = argv
  if (['sim', 'perftest', 'ibstat'].includes(first) && second !== undefined && !second.startsWith('-'))
    return { name: `${first} ${second}`, rest: argv.slice(2) }
  return { name: first, rest: argv.slice(1) }
}

function unknownCommand(name: string): number {
  const group = COMMANDS.filter(c => c.name.startsWith(`${name} `))
  if (group.length)
    return usageError(
      `${name}: expected ${group.map(c => `"${c.name}"`).join(' or ')} (node dist/cli.js --help)`
    )
  const near = COMMANDS.map(c => ({ c: c.name, d: editDistance(name, c.name) })).sort((a, b) => a.d - b.d)[0]
  return usageError(
    `unknown command "${name}"${near.d <= 2 ? `; did you mean ${near.c}?` : ''} (node dist/cli.js --help lists them)`
  )
}

export async function cli(argv: string[]): Promise<number> {
  // Node has already acted on these (before any of this code): say so, and run nothing.
  const nodeRead = nodeReadArgument(argv)
  if (nodeRead) return usageError(nodeRead)
  if (argv.length === 0) {
    process.stderr.write(mainHelp())
    return EXIT.usage
  }
  if (argv[0] === '--version' || argv[0] === '-V') {
    process.stdout.write(`${cliVersion()}\n`)
    return EXIT.success
  }
  if (['-h', '--help', 'help'].includes(argv[0])) {
    if (!argv[1]) {
      process.stdout.write(mainHelp())
      return EXIT.success
    }
    const about = resolveCommand(argv.slice(1)).name
    const specs = COMMANDS.filter(c => c.name === about || c.name.startsWith(`${about} `))
    if (!specs.length) return unknownCommand(about)
    process.stdout.write(specs.map(commandHelp).join('\n'))
    return EXIT.success
  }
  const { name, rest } = resolveCommand(argv)
  const spec = commandSpec(name)
  if (!spec) {
    const group = COMMANDS.filter(c => c.name.startsWith(`${name} `))
    if (group.length && rest.some(a => a === '-h' || a === '--help')) {
      process.stdout.write(group.map(commandHelp).join('\n'))
      return EXIT.success
    }
    return unknownCommand(name)
  }
  let parsed: ParsedCommand
  try {
    parsed = parseCommand(spec, rest)
  } catch (e) {
    if (e instanceof UsageError) return usageError(e.message)
    throw e
  }
  if (parsed.options.help) {
    process.stdout.write(commandHelp(spec))
    return EXIT.success
  }
  for (const input of parsed.unread)
    process.stderr.write(
      `note: --${input} is not read by ${name}; ignored (node dist/cli.js ${name} --help)\n`
    )
  let fileInputs: Record<string, string> = {}
  const inputsFile = parsed.options['inputs-file']
  if (typeof inputsFile === 'string') {
    try {
      const loaded = loadInputsFile(inputsFile)
      if (loaded.reexec) return rerunWithCa(argv)
      fileInputs = loaded.inputs
    } catch (e) {
      if (e instanceof UsageError) return usageError(e.message)
      throw e
    }
  }
  if (name === 'perftest parse' || name === 'ibstat parse')
    return runParser(spec.name.split(' ')[0] as 'perftest' | 'ibstat', parsed)
  const refused = name === 'plan' ? undefined : needsModernNode(name)
  if (refused !== undefined) return refused

  const session = startSession({
    verbose: parsed.options.verbose === true,
    jsonResults: parsed.options.output === 'json'
  })
  try {
    if (MODES.includes(name as Mode)) return await runMode(name as Mode, parsed, session)
    if (name === 'status') return await runLook('status', parsed, session)
    const sim = await import('../sim/commands.js')
    if (name === 'simulate')
      return await sim.simulateCommand(
        {
          inputs: { ...fileInputs, ...parsed.inputs },
          scenario: parsed.options.scenario as string | undefined,
          report: parsed.options.report as string | undefined,
          summary: parsed.options.summary as string | undefined,
          runs: parsed.options.runs as string | undefined,
          concurrent: parsed.options.concurrent as string | undefined,
          output: (parsed.options.output as 'text' | 'json' | undefined) ?? 'text'
        },
        session
      )
    if (name === 'sim up')
      return await sim.simUp(
        {
          dir: parsed.options.dir as string | undefined,
          scenario: parsed.options.scenario as string | undefined
        },
        session
      )
    return await sim.simDown({ dir: parsed.options.dir as string | undefined })
  } catch (e) {
    // Through the log, so a secret in an unexpected error is redacted like everything else.
    log.error(e instanceof Error ? (e.stack ?? e.message) : String(e), {
      title: `${name} failed unexpectedly`
    })
    return EXIT.failure
  } finally {
    session.close()
  }
}
