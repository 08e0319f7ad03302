// One home per rule (issue #27): a function, class or const declared at the top level of a web/src or server/src
// file (exported or not) must not carry the name of a value export of @rastro/domain — a rule copied under the
// same name drifts from its home. Import the domain's instead, or give a different thing a different name. Test
// files are not looked at (their fixtures are not rules). Prints each clash and exits 1 when there is any; run by
// `npm test` through server/test/tooling/same-names.test.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const ROOTS = ['server/src', 'web/src'].map((r) => join(root, r));
const SOURCE = /\.(ts|tsx|mts)$/;
const TEST = /\.(test|spec)\.(ts|tsx)$/;

function files(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (SOURCE.test(name) && !/\.d\.ts$/.test(name) && !TEST.test(name)) out.push(p);
  }
  return out;
}

/** Names bound by a declaration's name (an identifier, or every identifier of a destructuring pattern). */
function boundNames(name) {
  if (ts.isIdentifier(name)) return [name.text];
  if (ts.isObjectBindingPattern(name) || ts.isArrayBindingPattern(name))
    return name.elements.flatMap((e) => (ts.isBindingElement(e) ? boundNames(e.name) : []));
  return [];
}

/** Top-level functions, classes and variables of a file's text: `[{ name, line }]`. */
export function topLevelNames(text, fileName = 'x.ts') {
  const kind = fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const out = [];
  const add = (name, node) =>
    out.push({ name, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
  for (const s of source.statements) {
    if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && s.name) add(s.name.text, s);
    else if (ts.isVariableStatement(s))
      for (const d of s.declarationList.declarations) for (const n of boundNames(d.name)) add(n, d);
  }
  return out;
}

let exportsCache = null;
/** The value exports (functions, classes, consts) of packages/domain/src/index.ts, by the type checker. */
export function domainValueExports() {
  exportsCache ??= readDomainExports();
  return exportsCache;
}

function readDomainExports() {
  const index = join(root, 'packages/domain/src/index.ts');
  const program = ts.createProgram([index], {
    allowImportingTsExtensions: true,
    noEmit: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    noResolve: false,
  });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(index));
  const names = new Set();
  for (const sym of checker.getExportsOfModule(moduleSymbol)) {
    const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
    if (target.flags & ts.SymbolFlags.Value) names.add(sym.name);
  }
  return names;
}

/** Clashes of `files` (paths) with `domainNames`: `[{ file, line, name }]`. */
export function sameNames(domainNames, paths) {
  const out = [];
  for (const file of paths) {
    for (const { name, line } of topLevelNames(readFileSync(file, 'utf8'), file)) {
      if (domainNames.has(name)) out.push({ file, line, name });
    }
  }
  return out;
}

/** Every clash in web/src and server/src. */
export function checkTree() {
  return sameNames(domainValueExports(), ROOTS.flatMap(files)).map((c) => ({
    ...c,
    file: relative(root, c.file),
  }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = checkTree();
  for (const c of found)
    console.log(`${c.file}:${c.line}: "${c.name}" is an export of @rastro/domain (one home per rule)`);
  console.log(`${found.length} declaration${found.length === 1 ? '' : 's'} named like a domain export`);
  process.exit(found.length ? 1 : 0);
}
