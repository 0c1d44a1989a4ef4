// The action's version (the report's `version`): package.json's, put into the bundles by
// script/build.mjs, or read from package.json when the sources run (tests).
import { readFileSync } from 'node:fs'

declare const __AKS_RDMA_ACTION_VERSION__: string | undefined

export function actionVersion(): string {
  if (typeof __AKS_RDMA_ACTION_VERSION__ === 'string') return __AKS_RDMA_ACTION_VERSION__
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  return pkg.version
}
