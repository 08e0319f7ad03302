import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import layers from './scripts/eslint-layers.js';
import sqlRule, { SQL_OUTSIDE_DB } from './scripts/eslint-sql.js';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'web/dist/**',
      'server/dist/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      '.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  // Layers (docs/architecture.md). web/src: app/ on top, nothing imports it; features/* never import app/ nor each
  // other; the shared pieces below them (shell/, branding/, components/, api/, stores/, i18n/) import neither.
  // server/src: the composition root (app.ts, main.ts, webApp.ts) on top, imported by nothing below; ext/ may use
  // traccar/, live/ and gateway/; live/ may use traccar/ but never ext/ or gateway/; traccar/ never live/, ext/ or
  // gateway/ (extensions pass policies in: accountPolicy.ts); gateway/ and db/ stand alone. Every relative import
  // (static, re-export, dynamic import()) is resolved before it is judged (scripts/eslint-layers.js).
  {
    files: ['server/src/**/*.ts', 'web/src/**/*.{ts,tsx}'],
    plugins: { layers },
    rules: { 'layers/boundaries': 'error' },
  },
  // SQL in server/src/db/repos (issue #30): no server file outside server/src/db runs a `.prepare(`/`.exec(`
  // of its own (scripts/eslint-sql.js).
  {
    ...SQL_OUTSIDE_DB,
    plugins: { sql: sqlRule },
    rules: { 'sql/no-sql-outside-db': 'error' },
  },
  // No source file over 500 lines (issue #13): split by responsibility when one grows.
  {
    files: ['server/src/**/*.ts', 'web/src/**/*.{ts,tsx}', 'packages/domain/src/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 500 }] },
  },
  // No function over 200 lines (issue #33): split a long one by form section, hook or answer builder.
  {
    files: ['server/src/**/*.ts', 'web/src/**/*.{ts,tsx}', 'packages/domain/src/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 200 }] },
  },
  // No forgotten await in the server (issue #30: repositories turn asynchronous one by one; a write or transaction
  // left unawaited would lose its error and its order). Type-aware, so only server/src. No promise as a condition
  // either (session 34: the access checks are asynchronous; `if (!canSee(…))` unawaited would always pass).
  {
    files: ['server/src/**/*.ts'],
    languageOptions: {
      parserOptions: { project: './server/tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
