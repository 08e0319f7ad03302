import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** One server folder's import rule: never the composition root, never the listed folders. */
function serverLayer(folder, forbidden) {
  const patterns = [
    {
      regex: '^(\\.\\./)+(app|main|webApp)\\.ts$',
      message: 'nothing below the composition root imports it (docs/architecture.md, server layers)',
    },
  ];
  if (forbidden.length)
    patterns.push({
      regex: `^(\\.\\./)+(${forbidden.join('|')})/`,
      message: `server/src/${folder} never imports ${forbidden.join(', ')} (docs/architecture.md, server layers)`,
    });
  return [
    {
      files: [`server/src/${folder}/**/*.ts`],
      rules: { 'no-restricted-imports': ['error', { patterns }] },
    },
  ];
}

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
  // Layers of server/src (docs/architecture.md): the composition root (app.ts, main.ts, webApp.ts) on top, imported
  // by nothing below; ext/ (the extension API) may use the Traccar API's services, the live core and the gateway;
  // live/ (the core and its report routes) may use traccar/ (sessions, access) but never ext/ or gateway/;
  // traccar/ never the live core, the extensions or the gateway (extensions pass policies in: accountPolicy.ts);
  // gateway/ and db/ stand alone. The shared helpers at the root (errors, context, config, …) serve every layer.
  ...serverLayer('ext', []),
  ...serverLayer('live', ['ext', 'gateway']),
  ...serverLayer('traccar', ['ext', 'live', 'gateway']),
  ...serverLayer('gateway', ['ext', 'live', 'traccar', 'db']),
  ...serverLayer('db', ['ext', 'live', 'traccar', 'gateway']),
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
