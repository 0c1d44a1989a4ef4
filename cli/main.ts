#!/usr/bin/env node
// The command line tool's entry (dist/cli.js, package.json's bin: `npx aks-rdma-action …`). The
// simulator's stand-ins (`__helm`, `__az`: the world puts them first on PATH and runs one per helm
// or az command) start without loading the tool's commands, the action or its clients; every
// other command is commands.ts's. A stand-in keeps its compiled code in Node's compile cache
// (module.enableCompileCache: $NODE_COMPILE_CACHE, else the system's temporary folder), so the
// next of the many helm commands of a run skips compiling it; user commands leave nothing behind.
import module from 'node:module'
import { needsModernNode } from './node-version.js'

type Standin = (
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: { stdout: (s: string) => void; stderr: (s: string) => void }
) => Promise<number>

/** The stand-ins the simulator puts on PATH (not user commands), loaded only when called. */
const STANDINS: Record<string, () => Promise<Standin>> = {
  __helm: async () => (await import('../sim/helm/index.js')).helmStandin,
  __az: async () => (await import('../sim/az/index.js')).azStandin
}

async function main(argv: string[]): Promise<number> {
  const standin = STANDINS[argv[0]]
  if (!standin) return (await import('./commands.js')).cli(argv)
  const refused = needsModernNode(argv[0])
  if (refused !== undefined) return refused
  module.enableCompileCache?.()
  return (await standin())(argv.slice(1), process.env, {
    stdout: s => process.stdout.write(s),
    stderr: s => process.stderr.write(s)
  })
}

// A closed pipe (e.g. `| head`) is not an error of the tool.
process.stdout.on('error', e => {
  if ((e as NodeJS.ErrnoException).code !== 'EPIPE') throw e
})
process.exitCode = await main(process.argv.slice(2))
