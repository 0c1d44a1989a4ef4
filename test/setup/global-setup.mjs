// Jest globalSetup: builds the three bundles once, with the real script/build.mjs, into a
// temporary folder and hands it to every test as AKS_RDMA_TEST_DIST, so tests run the bundles
// exactly as shipped (check-dist separately proves dist/ is byte-identical to this build).
// AKS_RDMA_TEST_DIST set beforehand (e.g. AKS_RDMA_TEST_DIST=dist) tests that folder instead.
// Every Node process a test starts (the bundles, the helm and az stand-ins: hundreds per run) keeps
// its compiled code in one compile cache for the run (NODE_COMPILE_CACHE, removed at teardown), so
// each bundle is compiled once rather than once per process. The run's temporary files all go to
// one folder (TMPDIR), which teardown removes.
import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

export default function globalSetup(_globalConfig, projectConfig) {
  // Everything the tests and the processes they start put in the temporary folder (run folders,
  // worlds, kubeconfigs) lands in one folder of this run, removed at teardown: a run leaves nothing.
  process.env.AKS_RDMA_TEST_TMPDIR = mkdtempSync(path.join(tmpdir(), 'suite-tmp-'))
  process.env.TMPDIR = process.env.AKS_RDMA_TEST_TMPDIR
  if (!process.env.NODE_COMPILE_CACHE) {
    process.env.NODE_COMPILE_CACHE = mkdtempSync(path.join(tmpdir(), 'aks-rdma-test-compile-cache-'))
  }
  if (process.env.AKS_RDMA_TEST_DIST) {
    process.env.AKS_RDMA_TEST_DIST = path.resolve(projectConfig.rootDir, process.env.AKS_RDMA_TEST_DIST)
    return
  }
  const outdir = mkdtempSync(path.join(tmpdir(), 'aks-rdma-test-dist-'))
  execFileSync(process.execPath, ['script/build.mjs', '--outdir', outdir], {
    cwd: projectConfig.rootDir,
    stdio: ['ignore', 'pipe', 'inherit']
  })
  process.env.AKS_RDMA_TEST_DIST = outdir
}
