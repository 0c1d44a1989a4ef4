// Jest globalTeardown: removes the bundles global-setup.mjs built (never a folder it was given).
import { rmSync } from 'node:fs'

export default function globalTeardown() {
  if (process.env.AKS_RDMA_TEST_DIST_OWNED === '1' && process.env.AKS_RDMA_TEST_DIST)
    rmSync(process.env.AKS_RDMA_TEST_DIST, { recursive: true, force: true })
}
