// Jest for the mutation run (npm run mutate, stryker.config.mjs): the fast unit tests of the
// action's decision-making modules only — no simulator, no bundles (so no globalSetup), Node's own
// test environment (Stryker wraps it to learn which test covers which mutant). ESM TypeScript
// through ts-jest as in jest.config.js; tsconfig's isolatedModules makes it transpile only.
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: false }]
  },
  testMatch: [
    '<rootDir>/test/settings.test.ts',
    '<rootDir>/test/settings-limits.test.ts',
    '<rootDir>/test/settings-edges.test.ts',
    '<rootDir>/test/action-inputs.test.ts',
    '<rootDir>/test/components.test.ts',
    '<rootDir>/test/component-manifests.test.ts',
    '<rootDir>/test/component-plan.test.ts',
    '<rootDir>/test/component-drift-extras.test.ts',
    '<rootDir>/test/plan.test.ts',
    '<rootDir>/test/stack-readiness.test.ts',
    '<rootDir>/test/health-rules.test.ts',
    '<rootDir>/test/readiness-selectors.test.ts',
    '<rootDir>/test/stack-diagnostics.test.ts',
    '<rootDir>/test/verify-checks.test.ts',
    '<rootDir>/test/verify-judgement.test.ts',
    '<rootDir>/test/benchmark-analysis.test.ts',
    '<rootDir>/test/benchmark-run-units.test.ts',
    '<rootDir>/test/summary.test.ts',
    '<rootDir>/test/parse-ibstat.test.ts',
    '<rootDir>/test/parse-ibstat-forms.test.ts',
    '<rootDir>/test/parse-perftest.test.ts',
    '<rootDir>/test/parse-perftest-forms.test.ts',
    '<rootDir>/test/cleanup-decisions.test.ts',
    '<rootDir>/test/drift-units.test.ts',
    '<rootDir>/test/drift-manifest-decisions.test.ts',
    '<rootDir>/test/drift-paths-edges.test.ts',
    '<rootDir>/test/link-rate.test.ts'
  ],
  testTimeout: 30000
}
