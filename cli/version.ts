// The CLI's version (`--version`): package.json's, put into the bundle by script/build.mjs (so a
// release, which bumps package.json, rebuilds dist/), or read from package.json when the CLI runs
// from its sources.
import { readFileSync } from 'node:fs'

declare const __AKS_RDMA_ACTION_VERSION__: string | undefined

export function cliVersion(): string {
  if (typeof __AKS_RDMA_ACTION_VERSION__ === 'string') return __AKS_RDMA_ACTION_VERSION__
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  return pkg.version
}
