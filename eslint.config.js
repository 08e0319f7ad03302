import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
  // Layers of web/src (docs/architecture.md): app/ on top, nothing imports it; features/* never import app/ nor
  // each other; the shared pieces below them (shell/, branding/, components/, api/, stores/, i18n/) import neither.
  {
    files: ['web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+app/',
              message: 'features never import app/ (docs/architecture.md, layers)',
            },
            {
              regex: '^\\.\\./(?!\\.\\./)[^/]+/',
              message:
                'features never import another feature: move the shared part below (docs/architecture.md)',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/src/{shell,branding,components,api,stores,i18n}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(app|features)/',
              message: 'shared pieces never import app/ or features/ (docs/architecture.md, layers)',
            },
          ],
        },
      ],
    },
  },
  // No source file over 500 lines (issue #13): split by responsibility when one grows.
  {
    files: ['server/src/**/*.ts', 'web/src/**/*.{ts,tsx}', 'packages/domain/src/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 500 }] },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
