import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'domain', include: ['packages/domain/test/**/*.test.ts'], environment: 'node' },
      },
      {
        test: {
          name: 'server',
          include: ['server/test/**/*.test.ts'],
          exclude: ['server/test/**/*.pg.test.ts'],
          environment: 'node',
          testTimeout: 30000,
          hookTimeout: 30000,
        },
      },
      {
        // several server processes on one PostgreSQL database: only in `npm test`'s PostgreSQL leg
        test: {
          name: 'server-pg',
          include: ['server/test/**/*.pg.test.ts'],
          environment: 'node',
          testTimeout: 60000,
          hookTimeout: 60000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}', 'web/test/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['web/test/setup-i18n.ts'],
          // jsdom renders of whole dialogs take seconds on a busy 2-core machine: a guard, not a timing check
          testTimeout: 20000,
        },
      },
    ],
  },
});
