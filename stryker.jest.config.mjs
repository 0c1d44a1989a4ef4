// The same mutation run with Stryker's own Jest runner (npm run mutate:jest): same scope, same
// tests (jest.mutate.config.js, ESM TypeScript through ts-jest under --experimental-vm-modules, Node's
// test environment wrapped by Stryker for per-test coverage). It starts Jest for every mutant —
// seconds each here — so the whole scope takes hours; use it with --mutate on a file or two
// (e.g. npm run mutate:jest -- --mutate src/health/rules.ts) to cross-check the in-process runner.
import config from './stryker.config.mjs'

const { inProcessRunner: _inProcess, ...base } = config

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  plugins: ['@stryker-mutator/jest-runner', '@stryker-mutator/typescript-checker'],
  testRunner: 'jest',
  jest: { configFile: 'jest.mutate.config.js', enableFindRelatedTests: true },
  testRunnerNodeArgs: ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning'],
  thresholds: { ...base.thresholds, break: null },
  incremental: false,
  htmlReporter: { fileName: 'reports/mutation-jest/index.html' },
  jsonReporter: { fileName: 'reports/mutation-jest/mutation.json' }
}
