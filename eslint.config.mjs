// Lint rules: eslint recommended + typescript-eslint recommended, over src/, test/, bench/ and script/.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  // .stryker-tmp: a mutation run's sandbox copy; reports: its output
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.stryker-tmp/**', 'reports/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', fetch: 'readonly', performance: 'readonly', structuredClone: 'readonly', NodeJS: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off'
    }
  }
)
