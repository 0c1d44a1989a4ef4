// Test helper: the bundles exactly as shipped, built once per Jest run by the real
// script/build.mjs (test/setup/global-setup.mjs puts them in AKS_RDMA_TEST_DIST).
import { existsSync } from 'node:fs'
import path from 'node:path'

export type BundleName = 'index' | 'post' | 'cli'

/** The folder holding index.js, post.js and cli.js as script/build.mjs built them. */
export function shippedDist(): string {
  const dir = process.env.AKS_RDMA_TEST_DIST
  if (!dir || !existsSync(path.join(dir, 'cli.js')))
    throw new Error(
      'AKS_RDMA_TEST_DIST is not set: run the tests through jest.config.js (its globalSetup builds it)'
    )
  return dir
}

/** The path of one shipped bundle. */
export function bundlePath(name: BundleName): string {
  return path.join(shippedDist(), `${name}.js`)
}
