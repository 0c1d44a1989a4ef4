// The shipped CLI as a child process, as a user starts it: one command's exit code and output,
// and `sim up` left running once it prints READY (docs/running-locally.md).
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { promisify } from 'node:util'

const exec = promisify(execFile)

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/** `node cliJs ...args` in `env`: its exit code and output (a non-zero exit is a result, not a throw). */
export async function runCli(
  cliJs: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeout: number
): Promise<CliResult> {
  try {
    const r = await exec(process.execPath, [cliJs, ...args], { env, timeout, maxBuffer: 64 * 1024 * 1024 })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e: any) {
    return { code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string }
  }
}

/** `node cliJs sim up --dir dir` in `env`, once it prints READY: the process and what it printed. */
export async function simUp(
  cliJs: string,
  dir: string,
  env: NodeJS.ProcessEnv
): Promise<{ up: ChildProcess; out: string }> {
  const up = spawn(process.execPath, [cliJs, 'sim', 'up', '--dir', dir], {
    env,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  await new Promise<void>((resolve, reject) => {
    up.stdout!.on('data', (b: Buffer) => {
      out += b.toString()
      if (/^READY$/m.test(out)) resolve()
    })
    up.on('exit', code => reject(new Error(`sim up exited ${code}: ${out}`)))
  })
  return { up, out }
}
