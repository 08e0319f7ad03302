// Import-cycle check (issue #13): no source file of server/src, web/src or packages/domain/src may reach itself
// through its relative imports: static imports, type-only imports (a type circle still ties files together),
// re-exports and dynamic import() all count. Prints each cycle found (one per strongly connected component, a
// shortest loop) and exits 1 when there is any. Run by `npm test` (its `cycles` step).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const ROOTS = ['server/src', 'web/src', 'packages/domain/src'].map((r) => join(root, r));
const SOURCE = /\.(ts|tsx|mts)$/;

function files(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (SOURCE.test(name) && !/\.d\.ts$/.test(name)) out.push(p);
  }
  return out;
}

// import … from '…' | import '…' | export … from '…' (type-only forms included) | import('…')
const STATIC = /^\s*(?:import|export)\s+(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;
const DYNAMIC = /import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Relative imports of a file's text. */
export function importsOf(text) {
  return [...text.matchAll(STATIC), ...text.matchAll(DYNAMIC)].map((m) => m[1]);
}

export function graph(all) {
  const set = new Set(all);
  const edges = new Map();
  for (const f of all) {
    const targets = [];
    for (const spec of importsOf(readFileSync(f, 'utf8'))) {
      const t = resolve(dirname(f), spec);
      if (set.has(t)) targets.push(t);
    }
    edges.set(f, targets);
  }
  return edges;
}

/** Strongly connected components with more than one file (Tarjan), or a file importing itself. */
export function cycles(edges) {
  let index = 0;
  const stack = [];
  const on = new Set();
  const idx = new Map();
  const low = new Map();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (edges.get(v) ?? []).includes(v)) out.push(comp);
    }
  };
  for (const v of edges.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/** One shortest loop through the component's first file (breadth-first), for the message. */
function loop(edges, comp) {
  const inComp = new Set(comp);
  const start = comp.slice().sort()[0];
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of edges.get(v) ?? []) {
      if (!inComp.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let x = v; x !== start; x = prev.get(x)) path.splice(1, 0, x);
        return [...path, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return comp;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const all = ROOTS.flatMap(files);
  const edges = graph(all);
  const found = cycles(edges);
  for (const comp of found) {
    const names = loop(edges, comp).map((f) => relative(root, f));
    console.log(`import cycle (${comp.length} files): ${names.join(' → ')}`);
  }
  console.log(`${all.length} files, ${found.length} import cycle${found.length === 1 ? '' : 's'}`);
  process.exit(found.length ? 1 : 0);
}
