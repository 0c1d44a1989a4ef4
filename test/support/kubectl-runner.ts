// The real kubectl for the simulator's suites (test/sim/kube): where it is, and runners for it in a
// scratch directory (its cache and HOME there, a kubeconfig file there by name).
import { execFile, execFileSync, spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'

export interface KubectlResult {
  code: number
  stdout: string
  stderr: string
}

/** $KUBECTL, else the kubectl on PATH, else undefined. */
export function findKubectl(): string | undefined {
  if (process.env.KUBECTL) return process.env.KUBECTL
  try {
    return execFileSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).trim() || undefined
  } catch {
    return undefined
  }
}

export interface KubectlRunner {
  /** kubectl with these arguments, as it exited. */
  kubectl(...args: string[]): Promise<KubectlResult>
  /** kubectl as the user of another kubeconfig file (a path). */
  kubectlAs(kubeconfig: string, ...args: string[]): Promise<KubectlResult>
  /** kubectl with extra environment variables (KUBE_EDITOR, ...). */
  kubectlWith(env: Record<string, string>, ...args: string[]): Promise<KubectlResult>
  /** kubectl with `input` on stdin. */
  kubectlIn(input: string, ...args: string[]): Promise<KubectlResult>
  /** A long-running kubectl (port-forward, attach): its output so far, and a way to stop it. */
  kubectlRunning(...args: string[]): {
    out: { stdout: string; stderr: string }
    exited: Promise<number>
    stop: () => boolean
  }
  /** kubectl that must exit 0: its stdout, else an error carrying its stderr. */
  ok(...args: string[]): Promise<string>
  /** kubectl that must exit 0: both of its streams. */
  succeeds(...args: string[]): Promise<KubectlResult>
  /** Writes `text` to `name` in the scratch directory; its path. */
  file(name: string, text: string): string
}

/**
 * Runs `bin` in the scratch directory `dir()` (read at each call: suites make it in beforeAll), as
 * the user of the kubeconfig file `kubeconfig` there unless told otherwise.
 */
export function kubectlRunner(bin: string, dir: () => string, kubeconfig: string): KubectlRunner {
  const argv = (config: string, args: string[]) => [
    '--kubeconfig',
    config,
    '--cache-dir',
    path.join(dir(), 'cache'),
    ...args
  ]
  const run = (o: { config?: string; env?: Record<string, string>; input?: string }, args: string[]) =>
    new Promise<KubectlResult>(resolve => {
      const config = o.config ?? path.join(dir(), kubeconfig)
      const child = execFile(
        bin,
        argv(config, args),
        { timeout: 90_000, env: { ...process.env, HOME: dir(), KUBECONFIG: config, ...o.env } },
        (err, stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })
      )
      if (o.input !== undefined) child.stdin!.end(o.input)
    })
  const succeeds = async (...args: string[]) => {
    const r = await run({}, args)
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}`)
    return r
  }
  return {
    kubectl: (...args) => run({}, args),
    kubectlAs: (config, ...args) => run({ config }, args),
    kubectlWith: (env, ...args) => run({ env }, args),
    kubectlIn: (input, ...args) => run({ input }, args),
    kubectlRunning(...args) {
      const child = spawn(bin, argv(path.join(dir(), kubeconfig), args), {
        env: { ...process.env, HOME: dir() }
      })
      const out = { stdout: '', stderr: '' }
      child.stdout.on('data', d => (out.stdout += d))
      child.stderr.on('data', d => (out.stderr += d))
      const exited = new Promise<number>(r => child.on('close', code => r(code ?? -1)))
      return { out, exited, stop: () => child.kill() }
    },
    ok: async (...args) => (await succeeds(...args)).stdout,
    succeeds,
    file(name, text) {
      const p = path.join(dir(), name)
      writeFileSync(p, text)
      return p
    }
  }
}
