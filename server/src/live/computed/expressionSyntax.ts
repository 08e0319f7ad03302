// The syntax of the computed-attribute expression language (expression.ts evaluates it): values, errors, the
// tokenizer and the recursive-descent parser producing the tree. No `eval`, no `new Function`.
//
// Grammar (lowest precedence first):
//   ternary  := or ( '?' ternary ':' ternary | '?:' ternary | '??' ternary )?
//   or       := and ( ('||' | 'or') and )*
//   and      := eq ( ('&&' | 'and') eq )*
//   eq       := rel ( ('==' | '!=' | 'eq' | 'ne') rel )*
//   rel      := add ( ('<' | '<=' | '>' | '>=' | 'lt' | 'le' | 'gt' | 'ge') add )*
//   add      := mul ( ('+' | '-') mul )*
//   mul      := unary ( ('*' | '/' | '%' | 'div' | 'mod') unary )*
//   unary    := ('-' | '+' | '!' | 'not') unary | postfix
//   postfix  := primary ( '.' name ( '(' args ')' )? )*
//   primary  := number | string | 'true' | 'false' | 'null' | name ( '(' args ')' )? | '(' ternary ')'

/** Longest accepted expression text (the API schema allows the same). */
export const MAX_EXPRESSION_LENGTH = 8192;
/** Deepest accepted nesting: parentheses, unary operators, calls and operator chains all count. */
export const MAX_DEPTH = 100;

export type Value = number | string | boolean | null;

/** A parse error (bad syntax, too long, too deep). `message` is meant for the user. */
export class ExpressionError extends Error {
  constructor(
    message: string,
    readonly position = -1,
  ) {
    super(position >= 0 ? `${message} at position ${position + 1}` : message);
    this.name = 'ExpressionError';
  }
}

/** A runtime error (wrong operand types, unknown method, division by zero). */
export class EvaluationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EvaluationError';
  }
}

// ---- tokens ------------------------------------------------------------------------------------------

type TokKind = 'num' | 'str' | 'name' | 'op' | 'end';
interface Token {
  kind: TokKind;
  text: string;
  value?: number | string;
  pos: number;
}

const OPERATORS = ['?:', '??', '||', '&&', '==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '%', '!'];
const PUNCT = ['?', ':', '(', ')', '.', ','];
const WORD_OPS: Record<string, string> = {
  and: '&&',
  or: '||',
  not: '!',
  eq: '==',
  ne: '!=',
  lt: '<',
  le: '<=',
  gt: '>',
  ge: '>=',
  div: '/',
  mod: '%',
};

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const start = i;
    if (isDigit(c) || (c === '.' && isDigit(src[i + 1] ?? ''))) {
      while (isDigit(src[i] ?? '')) i++;
      if (src[i] === '.' && isDigit(src[i + 1] ?? '')) {
        i++;
        while (isDigit(src[i] ?? '')) i++;
      }
      if ((src[i] === 'e' || src[i] === 'E') && /^[eE][+-]?\d/.test(src.slice(i, i + 3))) {
        i += src[i + 1] === '+' || src[i + 1] === '-' ? 2 : 1;
        while (isDigit(src[i] ?? '')) i++;
      }
      // Java literal suffixes (10L, 2.5d, 1f) are accepted and ignored
      if (/[lLdDfF]/.test(src[i] ?? '') && !isNameChar(src[i + 1] ?? '')) i++;
      if (isNameChar(src[i] ?? ''))
        throw new ExpressionError(`invalid number "${src.slice(start, i + 1)}"`, start);
      const text = src.slice(start, i);
      out.push({ kind: 'num', text, value: Number(text.replace(/[lLdDfF]$/, '')), pos: start });
      continue;
    }
    if (c === "'" || c === '"') {
      i++;
      let s = '';
      for (;;) {
        if (i >= src.length) throw new ExpressionError('unterminated string', start);
        const ch = src[i];
        if (ch === c) {
          i++;
          break;
        }
        if (ch === '\\') {
          const e = src[i + 1];
          if (e === undefined) throw new ExpressionError('unterminated string', start);
          s += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e;
          i += 2;
          continue;
        }
        s += ch;
        i++;
      }
      out.push({ kind: 'str', text: src.slice(start, i), value: s, pos: start });
      continue;
    }
    if (isNameStart(c)) {
      while (i < src.length && isNameChar(src[i])) i++;
      const text = src.slice(start, i);
      const op = Object.hasOwn(WORD_OPS, text) ? WORD_OPS[text] : undefined;
      out.push(op ? { kind: 'op', text: op, pos: start } : { kind: 'name', text, pos: start });
      continue;
    }
    const two = src.slice(i, i + 2);
    const op = OPERATORS.find((o) => o.length === 2 && o === two) ?? OPERATORS.find((o) => o === c);
    if (op) {
      out.push({ kind: 'op', text: op, pos: start });
      i += op.length;
      continue;
    }
    if (PUNCT.includes(c)) {
      out.push({ kind: 'op', text: c, pos: start });
      i++;
      continue;
    }
    throw new ExpressionError(`unexpected character "${c}"`, start);
  }
  out.push({ kind: 'end', text: 'end of expression', pos: src.length });
  return out;
}

const isDigit = (c: string) => c >= '0' && c <= '9';
const isNameStart = (c: string) => /[A-Za-z_$]/.test(c);
const isNameChar = (c: string) => /[A-Za-z0-9_$]/.test(c);

// ---- syntax tree -------------------------------------------------------------------------------------

export type Node =
  | { k: 'lit'; v: Value; d: number }
  | { k: 'id'; name: string; d: number }
  | { k: 'un'; op: string; e: Node; d: number }
  | { k: 'bin'; op: string; l: Node; r: Node; d: number }
  | { k: 'cond'; c: Node; a: Node; b: Node; d: number }
  | { k: 'elvis'; op: '?:' | '??'; a: Node; b: Node; d: number }
  | { k: 'call'; name: string; args: Node[]; d: number }
  | { k: 'member'; target: Node; name: string; args: Node[] | null; d: number };

type NodeBody = Node extends infer N ? (N extends Node ? Omit<N, 'd'> : never) : never;

const KEYWORDS: Record<string, Value> = { true: true, false: false, null: null };
/** Functions callable without a receiver. */
const FUNCTIONS = new Set(['empty', 'size']);
/** `Math.<name>(...)` */
const MATH = new Set(['round', 'floor', 'ceil', 'abs', 'min', 'max', 'sqrt', 'pow']);

class Parser {
  private i = 0;
  private nest = 0;
  constructor(private readonly toks: Token[]) {}

  parse(): Node {
    const n = this.ternary();
    const t = this.peek();
    if (t.kind !== 'end') throw new ExpressionError(`unexpected "${t.text}"`, t.pos);
    return n;
  }

  private peek(): Token {
    return this.toks[this.i];
  }
  private isOp(...ops: string[]): boolean {
    const t = this.peek();
    return t.kind === 'op' && ops.includes(t.text);
  }
  private expect(op: string): void {
    const t = this.peek();
    if (t.kind !== 'op' || t.text !== op) {
      throw new ExpressionError(`expected "${op}" but found "${t.text}"`, t.pos);
    }
    this.i++;
  }
  /** Builds a node, enforcing MAX_DEPTH over the tree's height. */
  private node(n: NodeBody, children: Node[], pos: number): Node {
    const d = 1 + children.reduce((m, c) => Math.max(m, c.d), 0);
    if (d > MAX_DEPTH) throw new ExpressionError(`expression nested deeper than ${MAX_DEPTH}`, pos);
    return { ...n, d } as Node;
  }

  private ternary(): Node {
    const c = this.or();
    const t = this.peek();
    if (this.isOp('?')) {
      this.i++;
      const a = this.ternary();
      this.expect(':');
      const b = this.ternary();
      return this.node({ k: 'cond', c, a, b }, [c, a, b], t.pos);
    }
    if (this.isOp('?:', '??')) {
      this.i++;
      const b = this.ternary();
      return this.node({ k: 'elvis', op: t.text as '?:' | '??', a: c, b }, [c, b], t.pos);
    }
    return c;
  }

  private chain(next: () => Node, ops: string[]): Node {
    let l = next();
    while (this.isOp(...ops)) {
      const t = this.peek();
      this.i++;
      const r = next();
      l = this.node({ k: 'bin', op: t.text, l, r }, [l, r], t.pos);
    }
    return l;
  }
  private or = (): Node => this.chain(this.and, ['||']);
  private and = (): Node => this.chain(this.eq, ['&&']);
  private eq = (): Node => this.chain(this.rel, ['==', '!=']);
  private rel = (): Node => this.chain(this.add, ['<', '<=', '>', '>=']);
  private add = (): Node => this.chain(this.mul, ['+', '-']);
  private mul = (): Node => this.chain(this.unary, ['*', '/', '%']);

  private unary = (): Node => {
    const t = this.peek();
    if (++this.nest > MAX_DEPTH)
      throw new ExpressionError(`expression nested deeper than ${MAX_DEPTH}`, t.pos);
    try {
      if (this.isOp('-', '+', '!')) {
        this.i++;
        const e = this.unary();
        return this.node({ k: 'un', op: t.text, e }, [e], t.pos);
      }
      return this.postfix();
    } finally {
      this.nest--;
    }
  };

  private args(): Node[] {
    this.expect('(');
    const out: Node[] = [];
    if (!this.isOp(')')) {
      for (;;) {
        out.push(this.ternary());
        if (!this.isOp(',')) break;
        this.i++;
      }
    }
    this.expect(')');
    return out;
  }

  private postfix(): Node {
    let n = this.primary();
    while (this.isOp('.')) {
      const dot = this.peek();
      this.i++;
      const t = this.peek();
      if (t.kind !== 'name') throw new ExpressionError(`expected a method name after "."`, t.pos);
      this.i++;
      const args = this.isOp('(') ? this.args() : null;
      n = this.node({ k: 'member', target: n, name: t.text, args }, [n, ...(args ?? [])], dot.pos);
    }
    return n;
  }

  private primary(): Node {
    const t = this.peek();
    if (t.kind === 'num' || t.kind === 'str') {
      this.i++;
      return { k: 'lit', v: t.value as Value, d: 1 };
    }
    if (t.kind === 'name') {
      this.i++;
      if (Object.hasOwn(KEYWORDS, t.text)) return { k: 'lit', v: KEYWORDS[t.text], d: 1 };
      if (t.text === 'Math') {
        this.expect('.');
        const f = this.peek();
        if (f.kind !== 'name' || !MATH.has(f.text)) {
          throw new ExpressionError(`unknown function "Math.${f.text}"`, f.pos);
        }
        this.i++;
        const args = this.args();
        return this.node({ k: 'call', name: `Math.${f.text}`, args }, args, t.pos);
      }
      if (this.isOp('(')) {
        if (!FUNCTIONS.has(t.text)) throw new ExpressionError(`unknown function "${t.text}"`, t.pos);
        const args = this.args();
        return this.node({ k: 'call', name: t.text, args }, args, t.pos);
      }
      return { k: 'id', name: t.text, d: 1 };
    }
    if (this.isOp('(')) {
      this.i++;
      const n = this.ternary();
      this.expect(')');
      return n;
    }
    throw new ExpressionError(
      t.kind === 'end' ? 'unexpected end of expression' : `unexpected "${t.text}"`,
      t.pos,
    );
  }
}

/** Parses `text` into a tree; throws ExpressionError with a user-readable message. */
export function parseExpression(text: string): Node {
  if (typeof text !== 'string') throw new ExpressionError('expression must be text');
  if (text.length > MAX_EXPRESSION_LENGTH) {
    throw new ExpressionError(`expression longer than ${MAX_EXPRESSION_LENGTH} characters`);
  }
  if (text.trim() === '') throw new ExpressionError('expression is empty');
  return new Parser(tokenize(text)).parse();
}
