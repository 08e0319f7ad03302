// SQL stays in server/src/db (issue #30, docs/decisions/41-kysely-repositories.md): every query lives in the typed
// repositories of server/src/db/repos, and this rule keeps it there — no `.prepare(` / `.prepareNative(` call, and
// no `.exec(` on a database handle or with SQL text, in any server source file outside server/src/db.

/** Where the rule applies: every server source file outside server/src/db (since session 21 none holds SQL). */
export const SQL_OUTSIDE_DB = { files: ['server/src/**/*.ts'], ignores: ['server/src/db/**'] };

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
