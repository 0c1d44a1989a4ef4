// No command the project documents hands Node an argument Node reads itself (docs/security.md, "Node
// reads some arguments itself"): no flag of the CLI is one, and no command line in the README, the
// docs, the example and CI workflows, or the CLI's help carries `--env-file` or Node's config file.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { COMMANDS, INPUT_ALIASES } from '../../cli/flags.js'
import { commandHelp, mainHelp } from '../../cli/help.js'
import { nodeReadArgument } from '../../cli/node-argv.js'
import { INPUTS } from '../../src/settings/input-definitions.js'

/** Markdown and YAML files of a folder, recursively. */
function docsUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e =>
    e.isDirectory()
      ? docsUnder(path.join(dir, e.name))
      : /\.(md|ya?ml)$/.test(e.name)
        ? [path.join(dir, e.name)]
        : []
  )
}

/** The lines that run the CLI: `node dist/cli.js …`, `npx aks-rdma-action …`, `aks-rdma-action <command>`. */
function cliCommandLines(text: string): string[] {
  return text
    .split('\n')
    .filter(l => /dist\/cli\.js|npx (-y )?aks-rdma-action|(^|[\s`$])aks-rdma-action [a-z]/.test(l))
}

/** The tokens of a line Node would read from its command line. */
function nodeTokens(line: string): string[] {
  return line.split(/[\s`'"()]+/).filter(t => nodeReadArgument([t]) !== undefined)
}

describe('arguments Node reads itself', () => {
  it('recognises every spelling Node 24 reads, and nothing else', () => {
    for (const t of [
      '--env-file',
      '--env-file=x',
      '--env-file-if-exists',
      '--env-file-if-exists=x',
      '--experimental-config-file',
      '--experimental-config-file=x',
      '--experimental-default-config-file'
    ])
      expect({ t, read: nodeReadArgument(['plan', t]) !== undefined }).toEqual({ t, read: true })
    for (const t of ['--inputs-file', '--env-filex', '--envfile', 'env-file', '--values-file=--env-file'])
      expect({ t, read: nodeReadArgument(['plan', t]) }).toEqual({ t, read: undefined })
    // Node stops looking for --env-file at `--` (but not for its config file).
    expect(nodeReadArgument(['perftest', 'parse', '--', '--env-file'])).toBeUndefined()
    expect(nodeReadArgument(['plan', '--', '--experimental-config-file=x'])).toContain('not an option')
  })

  it('no flag of any command is one Node reads', () => {
    const flags = [
      ...COMMANDS.flatMap(c => c.options.map(o => `--${o.name}`)),
      ...INPUTS.map(i => `--${i.name}`),
      ...Object.keys(INPUT_ALIASES).map(a => `--${a}`)
    ]
    expect(flags).toContain('--inputs-file')
    expect(flags.filter(f => nodeReadArgument([f]) !== undefined)).toEqual([])
  })

  it('no documented command line carries one', () => {
    const files = [
      'README.md',
      'CONTRIBUTING.md',
      'sim/README.md',
      'action.yml',
      ...docsUnder('docs'),
      ...docsUnder('workflows'),
      ...docsUnder('.github/workflows')
    ]
    const lines = files.flatMap(f =>
      cliCommandLines(readFileSync(f, 'utf8')).map(line => ({ f, line, tokens: nodeTokens(line) }))
    )
    // The walk-through's commands are among them, with the renamed flag.
    expect(lines.some(l => l.line.includes('node dist/cli.js apply  --inputs-file'))).toBe(true)
    expect(lines.filter(l => l.tokens.length)).toEqual([])
  })

  it("the CLI's help shows no command line with one", () => {
    const help = [mainHelp(), ...COMMANDS.map(commandHelp)].join('\n')
    expect(help).toContain('--inputs-file FILE')
    const usages = help.split('\n').filter(l => /node dist\/cli\.js|Usage:/.test(l))
    expect(usages.length).toBeGreaterThan(COMMANDS.length)
    expect(usages.flatMap(nodeTokens)).toEqual([])
  })
})
