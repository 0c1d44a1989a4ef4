// Jest for the mutation run (npm run mutate, stryker.config.mjs): the unit tests (test/unit/, the
// action's modules alone) — no simulator, no bundles (so no globalSetup), Node's own test
// environment (Stryker wraps it to learn which test covers which mutant). ESM TypeScript through
// ts-jest as in jest.config.js; tsconfig's isolatedModules makes it transpile only. The in-process
// runner (script/mutation/in-process-runner.mjs) expands the same testMatch globs.
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: false }]
  },
  testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
  testTimeout: 30000
}
