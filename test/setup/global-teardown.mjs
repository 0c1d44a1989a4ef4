// Jest globalTeardown: removes the run's temporary folder global-setup.mjs made, and with it the
// bundles and the compile cache it built there (never a folder it was given).
import { rmSync } from 'node:fs'

export default function globalTeardown() {
  if (process.env.AKS_RDMA_TEST_TMPDIR)
    rmSync(process.env.AKS_RDMA_TEST_TMPDIR, { recursive: true, force: true })
}
