// Jest on Node 24 (through the node@24 devDependency), TypeScript through ts-jest in ESM mode.
// The suite is four projects, one per kind of test (CONTRIBUTING.md, "Tests"):
//   unit  test/unit/<src area>/  the action's modules alone, no simulated world
//   flow  test/flow/<area>/      the action (modules or shipped bundles) against the simulator
//   sim   test/sim/<area>/       the simulator's own behaviour, through real clients
//   repo  test/repo/             the repository's shape: action.yml, docs, workflows, release
// globalSetup builds the shipped bundles once (test/setup/global-setup.mjs); the test environment
// captures each test's output and shows it only when the test fails (test/setup/environment.mjs).
// One worker more than the machine has CPUs: a flow test waits on its simulated world's timers,
// the helm processes it starts and its client's rate limit for about a fifth of its time, which
// the extra worker fills (measured on two CPUs: 3 workers 13 % faster than 2; 4 no faster than 3).
// No test depends on the machine's speed.
import { availableParallelism } from 'node:os'

/** What every project shares: ESM TypeScript, the capturing environment, the sandbox left out. */
export const shared = {
  testEnvironment: '<rootDir>/test/setup/environment.mjs',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: ['TS151001'] } }
    ]
  },
  // A mutation run's sandbox (npm run mutate) is a copy of the project: never part of this suite.
  modulePathIgnorePatterns: ['<rootDir>/.stryker-tmp/']
}

export const KINDS = ['unit', 'flow', 'sim', 'repo']

export default {
  globalSetup: '<rootDir>/test/setup/global-setup.mjs',
  globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
  projects: KINDS.map(kind => ({
    ...shared,
    displayName: kind,
    testMatch: [`<rootDir>/test/${kind}/**/*.test.ts`]
  })),
  testTimeout: 60000,
  maxWorkers: availableParallelism() + 1
}
