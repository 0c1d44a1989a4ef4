// What every helm stand-in command gets: output streams, the environment, parsed global flags, the
// namespace helm would use, a lazily opened API connection, and the time scale applied to its
// readiness polling (HELM_STANDIN_TIME_SCALE, the simulator's clock scale; default 1). `--timeout`
// is NOT scaled: it is the caller's budget in the caller's (real) time, as the action computes it
// from its own step deadline; scaling it would hand helm 1/1000 of what the action meant.
import type { FlagValues } from './flags.js'
import { KubeRest } from './kube-rest.js'
import { StandinKubeConfig } from './kubeconfig.js'
import { helmPaths, type HelmPaths } from './repos.js'

/** Environment variable the simulator sets to its SimClock timeScale so helm polls at the world's pace. */
export const HELM_STANDIN_TIME_SCALE_ENV = 'HELM_STANDIN_TIME_SCALE'

/** helm polls readiness every 2 s. */
const HELM_POLL_MS = 2000

export interface HelmIo {
  stdout: (s: string) => void
  stderr: (s: string) => void
}

export class HelmContext {
  private kubeRest?: KubeRest
  readonly paths: HelmPaths
  readonly timeScale: number

  constructor(
    readonly env: NodeJS.ProcessEnv,
    readonly io: HelmIo,
    readonly flags: FlagValues
  ) {
    this.paths = helmPaths(env, {
      repositoryConfig: flags['repository-config'] as string | undefined,
      repositoryCache: flags['repository-cache'] as string | undefined
    })
    const scale = Number(env[HELM_STANDIN_TIME_SCALE_ENV])
    this.timeScale = Number.isFinite(scale) && scale > 0 ? scale : 1
  }

  get kube(): KubeRest {
    if (!this.kubeRest) {
      const kc = StandinKubeConfig.load(
        this.env,
        this.flags.kubeconfig as string | undefined,
        (this.flags['kube-context'] as string | undefined) || this.env.HELM_KUBECONTEXT
      )
      this.kubeRest = new KubeRest(kc)
    }
    return this.kubeRest
  }

  /** -n, else $HELM_NAMESPACE, else the kubeconfig context's namespace, else `default`. */
  get namespace(): string {
    const flag = this.flags.namespace as string | undefined
    if (flag) return flag
    if (this.env.HELM_NAMESPACE) return this.env.HELM_NAMESPACE
    try {
      return this.kube.contextNamespace()
    } catch {
      return 'default'
    }
  }

  get pollMs(): number {
    return Math.max(10, Math.round(HELM_POLL_MS * this.timeScale))
  }

  out(line: string): void {
    this.io.stdout(line.endsWith('\n') ? line : `${line}\n`)
  }

  debug = (line: string): void => {
    if (this.flags.debug) this.io.stderr(`${line}\n`)
  }
}
