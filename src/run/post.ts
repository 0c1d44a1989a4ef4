// The post step: removes the files the main step recorded in its state (kubeconfig, values
// files, report scratch), each only if it lies under RUNNER_TEMP; later parts add cleanup of
// what this run created and the Lease release.
import * as core from '@actions/core'
import { existsSync, rmSync } from 'node:fs'
import path from 'node:path'

export const STATE = { tempPaths: 'temp-paths' } as const

/** Paths the main step created under RUNNER_TEMP, to be removed by the post step. */
export function rememberTempPath(p: string, list: string[]): void {
  list.push(p)
  core.saveState(STATE.tempPaths, JSON.stringify(list))
}

export async function runPost(): Promise<void> {
  const runnerTemp = process.env.RUNNER_TEMP
  let paths: string[] = []
  try {
    paths = JSON.parse(core.getState(STATE.tempPaths) || '[]')
  } catch {
    paths = []
  }
  for (const p of paths) {
    const resolved = path.resolve(p)
    if (!runnerTemp || !resolved.startsWith(path.resolve(runnerTemp) + path.sep)) {
      core.info(`post: not removing ${resolved}: outside RUNNER_TEMP`)
      continue
    }
    if (existsSync(resolved)) {
      rmSync(resolved, { recursive: true, force: true })
      core.info(`post: removed ${path.basename(resolved)}`)
    }
  }
}
