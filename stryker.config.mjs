// StrykerJS mutation testing (npm run mutate; not part of .ci/run). It mutates the action's
// decision-making modules — settings and validation, the components' desired state and health
// rules, src/health, the verification rules, benchmark analysis, the parsers, the cleanup
// decisions, the drift comparison — and runs their fast unit tests (the list in
// jest.mutate.config.js) against each mutant, with per-test coverage, so a mutant runs only the
// tests that reach it. The test runner is script/mutation/in-process-runner.mjs, which loads the
// tests once (Stryker's jest-runner works with jest.mutate.config.js too — `npm run mutate:jest`
// — but starts Jest per mutant: hours for this scope). Reports: the console and
// reports/mutation/index.html; the run fails below the `break` threshold.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  plugins: ['@stryker-mutator/typescript-checker', './script/mutation/in-process-runner.mjs'],
  testRunner: 'in-process',
  inProcessRunner: { jestConfig: 'jest.mutate.config.js' },
  coverageAnalysis: 'perTest',
  // Mutants are transpiled, not type-checked (as ts-jest does with isolatedModules): the TypeScript
  // checker would drop those that do not compile before running them, at about three times the CPU
  // of the tests themselves. `npm run mutate -- --checkers typescript` runs with it (tsconfig.mutate.json).
  checkers: [],
  tsconfigFile: 'tsconfig.mutate.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  mutate: [
    'src/settings/*.ts',
    'src/components/*.ts',
    'src/health/*.ts',
    'src/verify/check-result.ts',
    'src/verify/probe-check.ts',
    'src/verify/probe-output.ts',
    'src/verify/read-only-checks.ts',
    'src/benchmark/analysis.ts',
    'src/benchmark/link-rate.ts',
    'src/parse/*.ts',
    'src/azure/cleanup.ts',
    'src/drift/paths.ts',
    'src/drift/manifests.ts'
  ],
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
  timeoutMS: 10000,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always'
}
