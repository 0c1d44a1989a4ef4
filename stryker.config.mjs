// StrykerJS mutation testing (npm run mutate; not part of .ci/run). It mutates the whole action,
// src/ (the simulator in sim/ stays out: it is the test bench, not the product), and runs the unit
// tests and the flows against the simulator (jest.mutate.config.js) against each mutant, with
// per-test coverage, so a mutant runs only the tests that reach it. The test runner is
// script/mutation/in-process-runner.mjs, which loads the tests once (Stryker's jest-runner starts
// Jest per mutant: days for this scope). The flows run the helm stand-in from bundles built once
// into the sandbox (buildCommand). Incremental: reports/stryker-incremental.json keeps each
// mutant's result, and a run tests again only mutants whose code or covering tests changed
// (`npm run mutate -- --force` tests all). Reports: the console, reports/mutation/index.html,
// reports/mutation/mutation.json, and per area (script/mutation/report-by-area.mjs); the run fails
// below the `break` threshold.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  plugins: ['@stryker-mutator/typescript-checker', './script/mutation/in-process-runner.mjs'],
  testRunner: 'in-process',
  inProcessRunner: {
    jestConfig: 'jest.mutate.config.js',
    env: { AKS_RDMA_TEST_DIST: '<rootDir>/.mutation-dist' }
  },
  buildCommand: 'node script/build.mjs --outdir .mutation-dist',
  coverageAnalysis: 'perTest',
  // Mutants are transpiled, not type-checked (as ts-jest does with isolatedModules): the TypeScript
  // checker would drop those that do not compile before running them, at about three times the CPU
  // of the tests themselves. `npm run mutate -- --checkers typescript` runs with it (tsconfig.mutate.json).
  checkers: [],
  tsconfigFile: 'tsconfig.mutate.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  mutate: ['src/**/*.ts'],
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  // Left out of the sandbox (anchored: test/fixtures/reports is a fixture folder).
  ignorePatterns: [
    '/dist',
    '/bench',
    '/workflows',
    '/reports',
    '/.ci',
    '/.github',
    '/coverage',
    '/CHANGELOG.md'
  ],
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: 80 },
  concurrency: 2,
  // A fresh worker process every 100 mutants: a static mutant loads fresh copies of the modules
  // (never unloaded), and a mutant that timed out may leave a flow's world running.
  maxTestRunnerReuse: 100,
  // A mutant's limit: twice what its covering tests took in the initial run, plus 30 s (a flow's
  // waits on a loaded machine vary by more than 10 s).
  timeoutFactor: 2,
  timeoutMS: 30000,
  // The initial run is every unit test and flow once, with coverage: minutes on a loaded machine.
  dryRunTimeoutMinutes: 90,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always'
}
