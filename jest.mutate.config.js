// Jest for the mutation run (npm run mutate, stryker.config.mjs), read by its in-process runner
// (script/mutation/in-process-runner.mjs), which runs the testMatch globs in this order: the unit
// tests (test/unit/, the action's modules alone; cheap, so they kill most mutants first), then the
// flows against the simulator (test/flow/), whose orchestration — Lease, apply, retries, helm,
// verification, benchmarks, the run and its post step — no unit test reaches. Left out: the flows
// that run the shipped bundles as child processes (a mutant is switched on in this process only,
// so those would cover nothing), the check that reads src/ as text for stray prints (the sandbox's
// sources are instrumented), and test/repo/ (action.yml, README, workflows: a mutant in an input's
// description caught there is documentation, not behaviour) and the README checks among the unit
// and flow tests (DOCUMENTATION_TESTS). MUTATE_TEST_KINDS=unit runs the unit tests alone: an area's
// score in minutes, a lower bound of what the flows would add; `unit,flow/stack` adds one area's flows. ESM TypeScript through ts-jest as in
// jest.config.js, for `npx jest -c` runs of the same selection.
import { existsSync } from 'node:fs'

const LEFT_OUT = [
  'test/unit/log/seam.test.ts',
  'test/flow/azure/cli-credential.test.ts',
  'test/flow/cli/',
  'test/flow/run/bundles.test.ts',
  'test/flow/run/leftovers.test.ts',
  'test/flow/run/one-run-two-jobs.test.ts',
  'test/flow/run/runner-contract.test.ts',
  'test/flow/run/untrusted-text.test.ts'
]

/**
 * Tests (ids `<file>: <describe…> <test>`, as regular expressions) that compare documentation with
 * the code: the README's workload snippet and Azure permissions table. The runner skips them; a
 * mutant only they would catch counts as survived, so the score says what behaviour catches.
 */
export const DOCUMENTATION_TESTS = [
  '^test/unit/report/workload-snippet\\.test\\.ts: .*the README shows',
  "^test/flow/azure/permissions\\.test\\.ts: .*the README's permissions table"
]

/**
 * The tests the run uses, in this order (MUTATE_TEST_KINDS, comma-separated; default `unit,flow`):
 * a kind (`unit`, `flow`) or one area's folder of a kind (`flow/kube`: test/flow/kube/), so an
 * orchestration area can be measured against its own flows instead of every flow that reaches it.
 */
export const TEST_KINDS = (process.env.MUTATE_TEST_KINDS || 'unit,flow')
  .split(',')
  .map(k => k.trim().replace(/\/+$/, ''))
  .filter(Boolean)
for (const k of TEST_KINDS)
  if (!/^(unit|flow)(\/[a-z0-9-]+)?$/.test(k) || !existsSync(new URL(`test/${k}/`, import.meta.url)))
    throw new Error(
      `MUTATE_TEST_KINDS: "${k}" is not a kind the mutation run uses (unit, flow) or a folder of one (e.g. flow/kube)`
    )

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: false }]
  },
  testMatch: TEST_KINDS.map(k => `<rootDir>/test/${k}/**/*.test.ts`),
  testPathIgnorePatterns: LEFT_OUT.map(p => `<rootDir>/${p.replace(/\./g, '\\.')}`),
  // A unit test takes milliseconds: a mutant that makes one hang is a Timeout after 10 s, not 60.
  testTimeout: TEST_KINDS.every(k => k.startsWith('unit')) ? 10000 : 60000
}
