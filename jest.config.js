// Jest on Node 24 (through the node@24 devDependency), TypeScript through ts-jest in ESM mode.
// globalSetup builds the shipped bundles once (test/setup/global-setup.mjs); the test environment
// captures each test's output and shows it only when the test fails (test/setup/environment.mjs).
// As many workers as the machine has CPUs: no test depends on the machine's speed.
import { availableParallelism } from 'node:os'

export default {
  testEnvironment: '<rootDir>/test/setup/environment.mjs',
  globalSetup: '<rootDir>/test/setup/global-setup.mjs',
  globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: ['TS151001'] } }]
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // A mutation run's sandbox (npm run mutate) is a copy of the project: never part of this suite.
  modulePathIgnorePatterns: ['<rootDir>/.stryker-tmp/'],
  testTimeout: 60000,
  maxWorkers: availableParallelism()
}
