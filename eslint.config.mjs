// Lint rules: eslint recommended + typescript-eslint recommended over every file, plus two type-aware rules
// over the TypeScript (a promise nobody awaits, a switch that forgets a case) and the import boundary of the
// action (src/ never reaches into the simulator or the CLI; test/repo/shape.test.ts holds the same line).
import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  // .stryker-tmp: a mutation run's sandbox copy; reports: its output
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.stryker-tmp/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off'
    }
  },
  {
    // Type-aware: the TypeScript the compiler checks (tsconfig.json), read once through the project service.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false }
      ]
    }
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(sim|cli)(/|$)',
              message: 'the action (src/) never imports the simulator or the CLI: they import it'
            }
          ]
        }
      ]
    }
  }
)
