// The layer rule of eslint.config.js (docs/architecture.md, "Layers"): resolves every relative import — static,
// re-export and dynamic `import()` — against the importing file, so `'../../features/x'`, a deeper `'../../x/'` and
// a lazy `import('../x/…')` are judged by where they land, not by how the path is spelt.
import { posix, relative, resolve, sep } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const SHARED_WEB = ['shell', 'branding', 'components', 'api', 'stores', 'i18n'];
const SERVER_ROOT_FILES = ['app.ts', 'main.ts', 'webApp.ts'];
/** What each server folder may not import (besides the composition root, which nothing below imports). */
const SERVER_FORBIDDEN = {
  ext: [],
  live: ['ext', 'gateway'],
  traccar: ['ext', 'live', 'gateway'],
  gateway: ['ext', 'live', 'traccar', 'db'],
  db: ['ext', 'live', 'traccar', 'gateway'],
};

/** Why `from` may not import `to` (both relative to the repository, posix), or null. */
export function layerRefusal(from, to) {
  const web = 'web/src/';
  if (from.startsWith(web) && to.startsWith(web)) {
    const [fromTop, fromSub] = from.slice(web.length).split('/');
    const [toTop, toSub] = to.slice(web.length).split('/');
    if (fromTop === 'features') {
      if (toTop === 'app') return 'features never import app/ (docs/architecture.md, layers)';
      if (toTop === 'features' && toSub !== fromSub)
        return 'features never import another feature: move the shared part below (docs/architecture.md)';
    }
    if (SHARED_WEB.includes(fromTop) && (toTop === 'app' || toTop === 'features'))
      return 'shared pieces never import app/ or features/ (docs/architecture.md, layers)';
    return null;
  }
  const server = 'server/src/';
  if (from.startsWith(server) && to.startsWith(server)) {
    const fromParts = from.slice(server.length).split('/');
    const toParts = to.slice(server.length).split('/');
    const folder = fromParts.length > 1 ? fromParts[0] : null;
    if (!folder || !(folder in SERVER_FORBIDDEN)) return null;
    if (toParts.length === 1 && SERVER_ROOT_FILES.includes(toParts[0]))
      return 'nothing below the composition root imports it (docs/architecture.md, server layers)';
    if (toParts.length > 1 && SERVER_FORBIDDEN[folder].includes(toParts[0]))
      return `server/src/${folder} never imports ${SERVER_FORBIDDEN[folder].join(', ')} (docs/architecture.md, server layers)`;
  }
  return null;
}

/** The literal module path of an import's source node, or null (a computed `import(x)` cannot be judged). */
function literalPath(node) {
  if (!node) return null;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return null;
}

const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'imports follow the layers of docs/architecture.md, however the path is written' },
    schema: [],
  },
  create(context) {
    const file = posix.normalize(relative(ROOT, context.filename).split(sep).join('/'));
    function check(node, source) {
      const spec = literalPath(source);
      if (!spec || !spec.startsWith('.')) return;
      const target = posix.normalize(posix.join(posix.dirname(file), spec));
      const why = layerRefusal(file, target);
      if (why) context.report({ node, message: why });
    }
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

export default { rules: { boundaries } };
