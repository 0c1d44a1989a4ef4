// Jest globalTeardown: removes the bundles, the compile cache and the run's temporary folder
// global-setup.mjs made (never a folder it was given).
import { rmSync } from 'node:fs'

export default function globalTeardown() {
  if (process.env.AKS_RDMA_TEST_DIST_OWNED === '1' && process.env.AKS_RDMA_TEST_DIST)
    rmSync(process.env.AKS_RDMA_TEST_DIST, { recursive: true, force: true })
  if (process.env.AKS_RDMA_TEST_COMPILE_CACHE_OWNED === '1' && process.env.NODE_COMPILE_CACHE)
    rmSync(process.env.NODE_COMPILE_CACHE, { recursive: true, force: true })
  if (process.env.AKS_RDMA_TEST_TMPDIR)
    rmSync(process.env.AKS_RDMA_TEST_TMPDIR, { recursive: true, force: true })
}
