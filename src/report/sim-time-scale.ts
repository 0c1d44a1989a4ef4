// How a command learns it ran against a simulated world, and that world's time scale, so the
// terminal text (text.ts, docs/running-locally.md) labels its times: the world states it in its
// environment (its .env and env.sh, the runs `simulate` starts).

/**
 * Set in a simulated world's environment (its .env, env.sh, the runs `simulate` starts) to the
 * world's time scale, so a command run against it labels its times.
 */
export const SIM_TIME_SCALE_ENV = 'AKS_RDMA_SIM_TIME_SCALE'

/** The time scale a simulated world's environment states, if any (a number in (0, 1]). */
export function simTimeScaleOf(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const n = Number(env[SIM_TIME_SCALE_ENV])
  return env[SIM_TIME_SCALE_ENV] && n > 0 && n <= 1 ? n : undefined
}
