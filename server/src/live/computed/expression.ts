// A small, safe expression language for computed attributes: the subset of Apache JEXL that Traccar users write
// (CONTRACT §3 "Attribute (computed)"). Own tokenizer and recursive-descent parser (expressionSyntax.ts), a cache
// of compiled trees and the tree-walking evaluator here; no `eval`, no `new Function`, no property access beyond
// the documented methods. See docs/api-embedded.md.
import {
  EvaluationError,
  ExpressionError,
  parseExpression,
  type Node,
  type Value,
} from './expressionSyntax.ts';

export {
  EvaluationError,
  ExpressionError,
  MAX_DEPTH,
  MAX_EXPRESSION_LENGTH,
  parseExpression,
  type Node,
  type Value,
} from './expressionSyntax.ts';

// ---- compiled-expression cache -----------------------------------------------------------------------

const CACHE_MAX = 2000;
const cache = new Map<string, Node | ExpressionError>();

/** parseExpression with a cache by text (parse errors are cached too). */
export function compile(text: string): Node {
  let hit = cache.get(text);
  if (hit === undefined) {
    try {
      hit = parseExpression(text);
    } catch (err) {
      if (!(err instanceof ExpressionError)) throw err;
      hit = err;
    }
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(text, hit);
  }
  if (hit instanceof ExpressionError) throw hit;
  return hit;
}

/** How many parsed expressions are cached (tests). */
export const cachedExpressions = () => cache.size;

// ---- evaluation --------------------------------------------------------------------------------------

/** Resolves a name; undefined (or anything that is not a number, string or boolean) reads as null. */
export type Scope = (name: string) => unknown;

export function toValue(v: unknown): Value {
  if (typeof v === 'number') return Number.isNaN(v) ? null : v;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  return null;
}

/** JEXL truthiness: null, false, 0 and '' are false. */
export function truthy(v: Value): boolean {
  if (v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  return v !== '';
}

function num(v: Value, op: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const n = v.trim() === '' ? NaN : Number(v);
    if (Number.isFinite(n)) return n;
  }
  throw new EvaluationError(`"${String(v)}" is not a number (operator ${op})`);
}

function equals(a: Value, b: Value): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a === typeof b) return a === b;
  // mixed types compare as numbers when both read as numbers ("1" == 1, true == 1)
  try {
    return num(a, '==') === num(b, '==');
  } catch {
    return false;
  }
}

function compare(op: string, a: Value, b: Value): boolean {
  if (a === null || b === null) return false;
  let c: number;
  if (typeof a === 'string' && typeof b === 'string') c = a < b ? -1 : a > b ? 1 : 0;
  else {
    const x = num(a, op);
    const y = num(b, op);
    c = x < y ? -1 : x > y ? 1 : 0;
  }
  return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
}

function str(v: Value): string {
  return v === null ? 'null' : String(v);
}

function arith(op: string, a: Value, b: Value): Value {
  if (op === '+' && (typeof a === 'string' || typeof b === 'string')) {
    if (a === null || b === null) return null;
    return str(a) + str(b);
  }
  if (a === null || b === null) return null;
  const x = num(a, op);
  const y = num(b, op);
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      if (y === 0) throw new EvaluationError('division by zero');
      return x / y;
    default:
      if (y === 0) throw new EvaluationError('division by zero');
      return x % y;
  }
}

function callFunction(name: string, args: Value[]): Value {
  const arity = (n: number) => {
    if (args.length !== n) throw new EvaluationError(`${name} takes ${n} argument${n === 1 ? '' : 's'}`);
  };
  switch (name) {
    case 'empty':
      arity(1);
      return args[0] === null || args[0] === '';
    case 'size':
      arity(1);
      if (typeof args[0] === 'string') return args[0].length;
      if (args[0] === null) return 0;
      throw new EvaluationError(`size of a ${typeof args[0]}`);
  }
  const m = name.slice(5);
  if (m === 'min' || m === 'max' || m === 'pow') arity(2);
  else arity(1);
  if (args.some((a) => a === null)) return null;
  const xs = args.map((a) => num(a, name));
  switch (m) {
    case 'round':
      return Math.floor(xs[0] + 0.5); // Java Math.round: half up
    case 'floor':
      return Math.floor(xs[0]);
    case 'ceil':
      return Math.ceil(xs[0]);
    case 'abs':
      return Math.abs(xs[0]);
    case 'min':
      return Math.min(xs[0], xs[1]);
    case 'max':
      return Math.max(xs[0], xs[1]);
    case 'sqrt':
      return Math.sqrt(xs[0]);
    default:
      return Math.pow(xs[0], xs[1]);
  }
}

function callMethod(target: Value, name: string, args: Value[] | null): Value {
  // null-safe: a method of null (an attribute the position lacks) is null
  if (target === null) return null;
  const argc = args?.length ?? 0;
  const arity = (n: number) => {
    if (argc !== n) throw new EvaluationError(`${name} takes ${n} argument${n === 1 ? '' : 's'}`);
  };
  if (name === 'toString' && args) {
    arity(0);
    return str(target);
  }
  if (typeof target === 'number' && args) {
    arity(0);
    if (name === 'intValue' || name === 'longValue') return Math.trunc(target);
    if (name === 'doubleValue' || name === 'floatValue') return target;
  }
  if (typeof target === 'string') {
    if (name === 'length' && (args === null || argc === 0)) return target.length;
    if (args) {
      const s = (i: number) => {
        const v = args[i];
        if (typeof v !== 'string') throw new EvaluationError(`${name} expects text`);
        return v;
      };
      const n = (i: number) => {
        const v = args[i];
        if (typeof v !== 'number' || !Number.isInteger(v))
          throw new EvaluationError(`${name} expects a whole number`);
        return v;
      };
      switch (name) {
        case 'size':
          arity(0);
          return target.length;
        case 'isEmpty':
          arity(0);
          return target.length === 0;
        case 'contains':
          arity(1);
          return target.includes(s(0));
        case 'startsWith':
          arity(1);
          return target.startsWith(s(0));
        case 'endsWith':
          arity(1);
          return target.endsWith(s(0));
        case 'equals':
          arity(1);
          return target === args[0];
        case 'equalsIgnoreCase':
          arity(1);
          return typeof args[0] === 'string' && target.toLowerCase() === args[0].toLowerCase();
        case 'indexOf':
          arity(1);
          return target.indexOf(s(0));
        case 'toUpperCase':
          arity(0);
          return target.toUpperCase();
        case 'toLowerCase':
          arity(0);
          return target.toLowerCase();
        case 'trim':
          arity(0);
          return target.trim();
        case 'substring': {
          if (argc !== 1 && argc !== 2) throw new EvaluationError('substring takes 1 or 2 arguments');
          const from = n(0);
          const to = argc === 2 ? n(1) : target.length;
          if (from < 0 || to > target.length || from > to) {
            throw new EvaluationError(`substring(${from}, ${to}) out of range`);
          }
          return target.substring(from, to);
        }
      }
    }
  }
  throw new EvaluationError(`unknown method "${name}" for ${typeof target}`);
}

/** Evaluates a parsed tree; throws EvaluationError on wrong operand types. */
export function evaluate(node: Node, scope: Scope): Value {
  switch (node.k) {
    case 'lit':
      return node.v;
    case 'id':
      return toValue(scope(node.name));
    case 'un': {
      const v = evaluate(node.e, scope);
      if (node.op === '!') return !truthy(v);
      if (v === null) return null;
      const x = num(v, node.op);
      return node.op === '-' ? -x : x;
    }
    case 'bin': {
      const { op } = node;
      if (op === '&&') return truthy(evaluate(node.l, scope)) && truthy(evaluate(node.r, scope));
      if (op === '||') return truthy(evaluate(node.l, scope)) || truthy(evaluate(node.r, scope));
      const a = evaluate(node.l, scope);
      const b = evaluate(node.r, scope);
      if (op === '==') return equals(a, b);
      if (op === '!=') return !equals(a, b);
      if (op === '<' || op === '<=' || op === '>' || op === '>=') return compare(op, a, b);
      return arith(op, a, b);
    }
    case 'cond':
      return truthy(evaluate(node.c, scope)) ? evaluate(node.a, scope) : evaluate(node.b, scope);
    case 'elvis': {
      const a = evaluate(node.a, scope);
      if (node.op === '??') return a !== null ? a : evaluate(node.b, scope);
      return truthy(a) ? a : evaluate(node.b, scope);
    }
    case 'call':
      return callFunction(
        node.name,
        node.args.map((a) => evaluate(a, scope)),
      );
    case 'member':
      return callMethod(
        evaluate(node.target, scope),
        node.name,
        node.args ? node.args.map((a) => evaluate(a, scope)) : null,
      );
  }
}

/** Compiles (cached) and evaluates `text`. Throws ExpressionError or EvaluationError. */
export function evaluateExpression(text: string, scope: Scope): Value {
  const v = evaluate(compile(text), scope);
  return typeof v === 'number' && !Number.isFinite(v) ? null : v;
}
