// SQL stays in server/src/db (issue #30, docs/decisions/41-kysely-repositories.md): the files listed below have
// moved their queries into the typed repositories of server/src/db/repos, and this rule keeps them there — no
// `.prepare(` / `.prepareNative(` call, and no `.exec(` on a database handle or with SQL text. Since session 21 no
// file outside server/src/db calls `.prepare(`; the list widens until it is all of server/src outside db/.

/** Files and folders (globs) whose SQL lives in server/src/db/repos. */
export const SQL_IN_REPOSITORIES = [
  'server/src/authorize.ts',
  'server/src/ext/**',
  'server/src/live/activity.ts',
  'server/src/live/assistant.ts',
  'server/src/live/assistantDrivers.ts',
  'server/src/live/assistantFleet.ts',
  'server/src/live/autolink.ts',
  'server/src/live/cache.ts',
  'server/src/live/commands.ts',
  'server/src/live/deviceStates.ts',
  'server/src/live/events/**',
  'server/src/live/geocoder/**',
  'server/src/live/ingest.ts',
  'server/src/live/ingestSql.ts',
  'server/src/live/insights/**',
  'server/src/live/notifications.ts',
  'server/src/live/osmand.ts',
  'server/src/live/positions.ts',
  'server/src/live/qrDriver.ts',
  'server/src/live/reports/**',
  'server/src/live/simulator/**',
  'server/src/refusal.ts',
  'server/src/traccar/access.ts',
  'server/src/traccar/admin.ts',
  'server/src/traccar/audit.ts',
  'server/src/traccar/auth.ts',
  'server/src/traccar/crud.ts',
  'server/src/traccar/index.ts',
  'server/src/traccar/listAnswer.ts',
  'server/src/traccar/password.ts',
  'server/src/traccar/permissions.ts',
  'server/src/traccar/resellers.ts',
  'server/src/traccar/resources.ts',
  'server/src/traccar/server.ts',
  'server/src/traccar/session.ts',
  'server/src/traccar/share.ts',
  'server/src/traccar/userRules.ts',
  'server/src/traccar/users.ts',
];

const HANDLE = /(^|\.)(sql|db|store|database|sqlite|client)$/i;
const SQL_TEXT = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP|BEGIN|COMMIT|ROLLBACK|PRAGMA)\b/i;

function text(node, source) {
  return node ? source.getText(node) : '';
}

function literalText(node) {
  if (!node) return '';
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral') return node.quasis.map((q) => q.value.cooked ?? '').join('?');
  return '';
}

const noSqlOutsideDb = {
  meta: {
    type: 'problem',
    docs: { description: 'SQL is written in server/src/db/repos (kysely), not in route or rule modules' },
    schema: [],
    messages: {
      sql: '`.{{method}}(` runs SQL outside server/src/db: add a function to a repository in server/src/db/repos (docs/decisions/41-kysely-repositories.md)',
    },
  },
  create(context) {
    const source = context.sourceCode ?? context.getSourceCode();
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier')
          return;
        const method = callee.property.name;
        const sqlCall =
          method === 'prepare' ||
          method === 'prepareNative' ||
          (method === 'exec' &&
            (HANDLE.test(text(callee.object, source)) || SQL_TEXT.test(literalText(node.arguments[0]))));
        if (sqlCall) context.report({ node, messageId: 'sql', data: { method } });
      },
    };
  },
};

export default { rules: { 'no-sql-outside-db': noSqlOutsideDb } };
