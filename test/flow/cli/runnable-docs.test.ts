// The command blocks of the README and docs/ marked ```sh runnable run as printed against the
// simulator (docs/running-locally.md says the rule), in document order, each in a bash of its own
// (`-e -o pipefail`) in a fresh folder whose `dist` is the bundles under test and whose PATH starts
// with Node 24: a block that starts its own world (`sim up`, `simulate`) in a clean environment, its
// `/tmp/rdma-sim` a fresh folder of the test's; every other block in a world the test starts with
// `sim up`, its `.env` in the environment (a runner step's inputs). Each exits 0, or the code an
// `exit=N` after `runnable` names. The only change to a command: `npx -y node@24` runs the Node 24 on
// PATH (no download in a test).
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  symlinkSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { shippedDist } from '../../support/dist.js'
import { simUp as simUpChild } from '../../support/cli-child.js'

jest.setTimeout(600_000)

interface Block {
  file: string
  line: number
  script: string
  exit: number
  /** It starts a world of its own. */
  ownWorld: boolean
}

const DOC_WORLD = '/tmp/rdma-sim'

/** The marked blocks of one Markdown file, in order. */
function runnableBlocks(file: string): Block[] {
  const lines = readFileSync(file, 'utf8').split('\n')
  const out: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^```sh runnable(?: exit=(\d+))?\s*$/.exec(lines[i])
    if (!open) continue
    const end = lines.findIndex((l, j) => j > i && l === '```')
    expect({ file, line: i + 1, closed: end > i }).toEqual({ file, line: i + 1, closed: true })
    const script = lines.slice(i + 1, end).join('\n')
    out.push({
      file,
      line: i + 1,
      script,
      exit: open[1] ? Number(open[1]) : 0,
      ownWorld: /dist\/cli\.js (sim up|simulate)\b/.test(script)
    })
    i = end
  }
  return out
}

function documents(): string[] {
  const docs = readdirSync('docs')
    .filter(f => f.endsWith('.md'))
    .sort()
    .map(f => path.join('docs', f))
  return ['README.md', ...docs]
}

/** The environment of a user's shell: none of the runner's or the test's own variables. */
function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(INPUT_|GITHUB_|RUNNER_|STATE_|ACTIONS_|NODE_OPTIONS$|KUBECONFIG$)/.test(k))
      env[k] = v
  return { ...env, ...extra }
}

/** NAME=value lines (the .env sim up writes). */
function envFile(file: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([A-Za-z_][\w-]*)=(.*)$/.exec(line)
    if (m) out[m[1]] = m[2]
  }
  return out
}

let work: string
let bin: string
let world: { dir: string; up: ChildProcess; env: Record<string, string> } | undefined

/** A folder for a block: `dist` is the bundles under test. */
function blockFolder(name: string): string {
  const dir = path.join(work, name)
  mkdirSync(dir)
  symlinkSync(shippedDist(), path.join(dir, 'dist'))
  return dir
}

/**
 * The script in bash; its output into a file, and done when bash exits (a world a block started in
 * the background keeps its inherited stderr open until its own sim down).
 */
function bash(
  script: string,
  cwd: string,
  env: Record<string, string>
): Promise<{ code: number; out: string }> {
  const log = path.join(cwd, '.block-output')
  const fd = openSync(log, 'w')
  const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', fd, fd] })
  closeSync(fd)
  const timer = setTimeout(() => child.kill('SIGTERM'), 300_000)
  return new Promise(resolve =>
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      resolve({ code: code ?? (signal ? 128 : 1), out: readFileSync(log, 'utf8') })
    })
  )
}

/** `sim up --dir dir`, once READY. */
async function simUp(dir: string, env: Record<string, string>): Promise<ChildProcess> {
  return (await simUpChild(path.join(shippedDist(), 'cli.js'), dir, env)).up
}

async function simDown(dir: string, env: Record<string, string>): Promise<void> {
  if (!existsSync(dir)) return
  await bash(`node '${path.join(shippedDist(), 'cli.js')}' sim down --dir '${dir}'`, work, env)
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'runnable-docs-'))
  // `node` is Node 24 (the one running the tests), as the docs ask.
  bin = path.join(work, 'bin')
  mkdirSync(bin)
  symlinkSync(process.execPath, path.join(bin, 'node'))
})

afterAll(async () => {
  if (world) {
    const exited = new Promise(r => world!.up.once('exit', r))
    await simDown(world.dir, cleanEnv({ PATH: `${bin}:${process.env.PATH}` }))
    await exited
  }
})

describe('the runnable blocks of the README and docs/', () => {
  it('are marked where a user starts: the fresh clone, running locally, day two, troubleshooting', () => {
    const marked = new Set(documents().flatMap(f => runnableBlocks(f).map(b => b.file)))
    for (const f of ['README.md', 'docs/running-locally.md', 'docs/day-two.md', 'docs/troubleshooting.md'])
      expect({ file: f, marked: marked.has(f) }).toEqual({ file: f, marked: true })
  })

  it('each runs as printed against the simulator and exits as the doc says', async () => {
    const blocks = documents().flatMap(runnableBlocks)
    const path0 = `${bin}:${process.env.PATH}`
    const results: Array<{ at: string; code: number; out: string }> = []
    for (const [i, b] of blocks.entries()) {
      const cwd = blockFolder(`block-${i}`)
      const script = b.script.replace(/npx -y node@24 /g, 'node ')
      let r: { code: number; out: string }
      if (b.ownWorld) {
        const dir = path.join(work, `own-world-${i}`)
        const env = cleanEnv({ PATH: path0, HOME: cwd, XDG_CACHE_HOME: path.join(work, 'cache') })
        try {
          r = await bash(script.split(DOC_WORLD).join(dir), cwd, env)
        } finally {
          await simDown(dir, env) // a block that failed before its sim down
        }
      } else {
        if (!world) {
          const dir = path.join(work, 'world')
          const up = await simUp(dir, cleanEnv({ PATH: path0 }))
          world = { dir, up, env: envFile(path.join(dir, '.env')) }
        }
        const env = cleanEnv({ ...world.env, PATH: `${bin}:${world.env.PATH}`, HOME: cwd })
        r = await bash(script.split(DOC_WORLD).join(world.dir), cwd, env)
      }
      const at = `${b.file}:${b.line}`
      results.push({ at, code: r.code, out: r.code === b.exit ? '' : r.out.slice(-4000) })
      expect(results.at(-1)).toEqual({ at, code: b.exit, out: '' })
    }
    expect(results.length).toBeGreaterThanOrEqual(4)
  })
})
