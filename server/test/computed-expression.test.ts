// The computed-attribute expression language (server/src/live/computed/expression.ts) and how results are applied
// to a position (apply.ts): operators, precedence, ternary/Elvis, nulls, strings, methods, caps, errors, fuzzing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyComputedAttributes,
  coerce,
  sortByPriority,
  type ComputedAttribute,
  type PositionFields,
} from '../src/live/computed/apply.ts';
import {
  cachedExpressions,
  compile,
  evaluateExpression,
  EvaluationError,
  ExpressionError,
  MAX_DEPTH,
  MAX_EXPRESSION_LENGTH,
  parseExpression,
  type Value,
} from '../src/live/computed/expression.ts';

const VARS: Record<string, unknown> = {
  speed: 50,
  ignition: true,
  adc1: 1234,
  io239: 1,
  fuel: 0,
  power: 12.6,
  driver: 'Ana',
  empty: '',
  nested: { a: 1 },
  nan: NaN,
  numText: '42',
};
const ev = (text: string, vars: Record<string, unknown> = VARS): Value =>
  evaluateExpression(text, (n) => vars[n]);

describe('literals and identifiers', () => {
  it('reads numbers, strings in both quotes, booleans and null', () => {
    expect(ev('42')).toBe(42);
    expect(ev('3.25')).toBe(3.25);
    expect(ev('.5')).toBe(0.5);
    expect(ev('1e3')).toBe(1000);
    expect(ev('10L')).toBe(10);
    expect(ev("'a b'")).toBe('a b');
    expect(ev('"x\\"y"')).toBe('x"y');
    expect(ev("'it\\'s'")).toBe("it's");
    expect(ev('true')).toBe(true);
    expect(ev('false')).toBe(false);
    expect(ev('null')).toBeNull();
  });

  it('resolves variables; unknown names, objects and NaN read as null', () => {
    expect(ev('adc1')).toBe(1234);
    expect(ev('ignition')).toBe(true);
    expect(ev('driver')).toBe('Ana');
    expect(ev('nosuch')).toBeNull();
    expect(ev('nested')).toBeNull();
    expect(ev('nan')).toBeNull();
  });
});

describe('operators', () => {
  it('does arithmetic with the usual precedence', () => {
    expect(ev('1 + 2 * 3')).toBe(7);
    expect(ev('(1 + 2) * 3')).toBe(9);
    expect(ev('10 - 4 - 3')).toBe(3); // left-associative
    expect(ev('20 / 4 / 5')).toBe(1);
    expect(ev('7 % 3')).toBe(1);
    expect(ev('7 mod 3 + 8 div 4')).toBe(3);
    expect(ev('adc1 * 0.01')).toBeCloseTo(12.34, 10);
    expect(ev('-speed + 60')).toBe(10);
    expect(ev('- -5')).toBe(5);
    expect(ev('5 / 2')).toBe(2.5); // JavaScript numbers: no integer division (documented)
  });

  it('concatenates with + when either side is a string', () => {
    expect(ev("'Driver: ' + driver")).toBe('Driver: Ana');
    expect(ev("'v' + 1 + 2")).toBe('v12');
    expect(ev("1 + 2 + 'v'")).toBe('3v');
    expect(ev("'on: ' + ignition")).toBe('on: true');
    expect(ev("'x' + nosuch")).toBeNull();
  });

  it('converts booleans and numeric text in arithmetic', () => {
    expect(ev('ignition + 1')).toBe(2);
    expect(ev('numText * 2')).toBe(84);
  });

  it('compares', () => {
    expect(ev('speed > 40')).toBe(true);
    expect(ev('speed >= 50 && speed <= 50')).toBe(true);
    expect(ev('speed < 50')).toBe(false);
    expect(ev('speed lt 60 and speed gt 10')).toBe(true);
    expect(ev('speed == 50')).toBe(true);
    expect(ev('speed != 50')).toBe(false);
    expect(ev("driver == 'Ana'")).toBe(true);
    expect(ev("'abc' < 'abd'")).toBe(true);
    expect(ev('numText == 42')).toBe(true);
    expect(ev('io239 == true')).toBe(true);
    expect(ev('1 + 1 == 2')).toBe(true); // arithmetic binds tighter than comparison
  });

  it('combines logic with short-circuit and JEXL truthiness', () => {
    expect(ev('ignition && speed > 5')).toBe(true);
    expect(ev('fuel || power > 12')).toBe(true);
    expect(ev('!ignition')).toBe(false);
    expect(ev('not fuel')).toBe(true);
    expect(ev('!!driver')).toBe(true);
    expect(ev('!empty')).toBe(true);
    expect(ev('true || false && false')).toBe(true); // && binds tighter than ||
    expect(ev('ignition or nosuch.contains(1)')).toBe(true);
    // short circuit: the right side would be a division by zero
    expect(ev('fuel != 0 && 10 / fuel > 1')).toBe(false);
  });

  it('handles ternary and Elvis', () => {
    expect(ev("ignition ? 'on' : 'off'")).toBe('on');
    expect(ev('fuel ? 1 : speed > 100 ? 2 : 3')).toBe(3); // right-associative
    expect(ev('nosuch ?: 7')).toBe(7);
    expect(ev('fuel ?: 7')).toBe(7); // 0 is false for Elvis
    expect(ev('fuel ?? 7')).toBe(0); // ?? only replaces null
    expect(ev('nosuch ?? driver')).toBe('Ana');
    expect(ev('adc1 ?: 7')).toBe(1234);
  });

  it('propagates null through arithmetic; comparisons with null are false', () => {
    expect(ev('nosuch * 2')).toBeNull();
    expect(ev('-nosuch')).toBeNull();
    expect(ev('nosuch > 1')).toBe(false);
    expect(ev('nosuch < 1')).toBe(false);
    expect(ev('nosuch == null')).toBe(true);
    expect(ev('nosuch != null')).toBe(false);
    expect(ev('null == 0')).toBe(false);
  });
});

describe('functions and methods', () => {
  it('offers Math.round/floor/ceil/abs/min/max/sqrt/pow', () => {
    expect(ev('Math.round(2.5)')).toBe(3);
    expect(ev('Math.round(-2.5)')).toBe(-2); // Java's half-up rounding
    expect(ev('Math.floor(power)')).toBe(12);
    expect(ev('Math.ceil(power)')).toBe(13);
    expect(ev('Math.abs(-3)')).toBe(3);
    expect(ev('Math.min(speed, 30)')).toBe(30);
    expect(ev('Math.max(speed, 30)')).toBe(50);
    expect(ev('Math.sqrt(16)')).toBe(4);
    expect(ev('Math.pow(2, 10)')).toBe(1024);
    expect(ev('Math.round(nosuch)')).toBeNull();
  });

  it('offers string methods and empty/size', () => {
    expect(ev("driver.contains('n')")).toBe(true);
    expect(ev("driver.startsWith('A')")).toBe(true);
    expect(ev("driver.endsWith('a')")).toBe(true);
    expect(ev('driver.length')).toBe(3);
    expect(ev('driver.length()')).toBe(3);
    expect(ev('driver.toUpperCase()')).toBe('ANA');
    expect(ev("'  x '.trim()")).toBe('x');
    expect(ev("'abcdef'.substring(1, 3)")).toBe('bc');
    expect(ev("driver.indexOf('a')")).toBe(2);
    expect(ev("driver.equalsIgnoreCase('ANA')")).toBe(true);
    expect(ev('adc1.toString() + driver')).toBe('1234Ana');
    expect(ev('power.intValue()')).toBe(12);
    expect(ev('empty(nosuch)')).toBe(true);
    expect(ev('empty(empty)')).toBe(true);
    expect(ev('empty(driver)')).toBe(false);
    expect(ev('size(driver)')).toBe(3);
    expect(ev("nosuch.contains('x')")).toBeNull(); // methods of null are null
  });

  it('refuses unknown functions when parsing and wrong operands when evaluating', () => {
    expect(() => parseExpression('Math.random()')).toThrow(ExpressionError);
    expect(() => parseExpression('eval("1")')).toThrow(/unknown function "eval"/);
    expect(() => ev('driver.constructor')).toThrow(EvaluationError);
    expect(() => ev("'a'.toString.call(1)")).toThrow(EvaluationError);
    expect(() => ev('speed.contains(1)')).toThrow(EvaluationError);
    expect(() => ev('driver.contains(1)')).toThrow(/expects text/);
    expect(() => ev("'abc'.substring(2, 9)")).toThrow(/out of range/);
    expect(() => ev('Math.min(1)')).toThrow(/takes 2 arguments/);
    expect(() => ev('driver - 1')).toThrow(/"Ana" is not a number/);
    expect(() => ev('size(speed)')).toThrow(EvaluationError);
    expect(() => ev('1 / 0')).toThrow(/division by zero/);
    expect(() => ev('1 % 0')).toThrow(/division by zero/);
  });

  it('cannot reach the host: no prototype walk, no globals', () => {
    expect(ev('constructor')).toBeNull();
    expect(ev('__proto__')).toBeNull();
    expect(ev('process')).toBeNull();
    expect(ev('globalThis')).toBeNull();
    expect(() => parseExpression('process.exit()')).not.toThrow();
    expect(ev('process.exit()')).toBeNull(); // a method of an unknown (null) name is null
  });
});

describe('parse errors and caps', () => {
  it('gives clear messages with positions', () => {
    expect(() => parseExpression('1 +')).toThrow('unexpected end of expression at position 4');
    expect(() => parseExpression('(1 + 2')).toThrow('expected ")" but found "end of expression"');
    expect(() => parseExpression('speed > > 1')).toThrow('unexpected ">" at position 9');
    expect(() => parseExpression("'open")).toThrow('unterminated string at position 1');
    expect(() => parseExpression('a ? b')).toThrow('expected ":"');
    expect(() => parseExpression('1 2')).toThrow('unexpected "2"');
    expect(() => parseExpression('a # b')).toThrow('unexpected character "#" at position 3');
    expect(() => parseExpression('12abc')).toThrow('invalid number');
    expect(() => parseExpression('   ')).toThrow('expression is empty');
    expect(() => parseExpression('a.')).toThrow('expected a method name');
  });

  it('caps length and nesting', () => {
    expect(() => parseExpression('1'.padEnd(MAX_EXPRESSION_LENGTH + 1, ' '))).toThrow(
      `expression longer than ${MAX_EXPRESSION_LENGTH} characters`,
    );
    const deep = '('.repeat(MAX_DEPTH + 1) + '1' + ')'.repeat(MAX_DEPTH + 1);
    expect(() => parseExpression(deep)).toThrow(`nested deeper than ${MAX_DEPTH}`);
    expect(ev('('.repeat(50) + '1' + ')'.repeat(50))).toBe(1);
    expect(() => parseExpression('!'.repeat(MAX_DEPTH + 1) + 'x')).toThrow('nested deeper');
    const chain = Array.from({ length: MAX_DEPTH + 2 }, () => '1').join(' + ');
    expect(() => parseExpression(chain)).toThrow('nested deeper');
    expect(ev(Array.from({ length: 60 }, () => '1').join(' + '))).toBe(60);
    // 4,000 opening parentheses fail cleanly, not with a stack overflow
    expect(() => parseExpression('('.repeat(4000))).toThrow(ExpressionError);
  });

  it('caches parsed expressions by text, errors included', () => {
    const text = `speed * ${Math.random()}`;
    const before = cachedExpressions();
    const a = compile(text);
    expect(compile(text)).toBe(a);
    expect(cachedExpressions()).toBe(before + 1);
    const bad = `speed * (${Math.random()}`;
    expect(() => compile(bad)).toThrow(ExpressionError);
    expect(() => compile(bad)).toThrow(ExpressionError);
  });
});

describe('fuzzing', () => {
  const scope = (n: string) => VARS[n];
  const check = (text: string) => {
    try {
      evaluateExpression(text, scope);
    } catch (err) {
      if (!(err instanceof ExpressionError) && !(err instanceof EvaluationError)) throw err;
    }
  };

  it('random text only ever fails with ExpressionError or EvaluationError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => check(s)),
      { numRuns: 2000 },
    );
  });

  it('random token soups only ever fail with ExpressionError or EvaluationError', () => {
    const token = fc.constantFrom(
      ...[
        '(',
        ')',
        '?',
        ':',
        '?:',
        '??',
        '+',
        '-',
        '*',
        '/',
        '%',
        '!',
        '&&',
        '||',
        '==',
        '!=',
        '<',
        '<=',
        '>',
        '>=',
        'and',
        'or',
        'not',
        '.',
        ',',
        '1',
        '0',
        '2.5',
        "'s'",
        '"t"',
        'true',
        'null',
        'speed',
        'driver',
        'nosuch',
        'Math.round',
        'Math.max',
        'empty',
        'size',
        'contains',
        'length',
        'substring',
        'toString',
      ],
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), (ts) => check(ts.join(' '))),
      { numRuns: 3000 },
    );
  });

  it('valid generated arithmetic agrees with a reference evaluation', () => {
    const leaf = fc.integer({ min: -50, max: 50 }).map((n) => ({ text: `(${n})`, value: n }));
    const expr = fc.letrec<{ e: { text: string; value: number } }>((tie) => ({
      e: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.tuple(tie('e'), fc.constantFrom('+', '-', '*'), tie('e')).map(([a, op, b]) => ({
          text: `(${a.text} ${op} ${b.text})`,
          value: op === '+' ? a.value + b.value : op === '-' ? a.value - b.value : a.value * b.value,
        })),
      ),
    })).e;
    fc.assert(
      fc.property(expr, ({ text, value }) => {
        let got: Value;
        try {
          got = evaluateExpression(text, scope);
        } catch (err) {
          // only the depth cap may refuse a generated expression
          expect(String(err)).toContain('nested deeper');
          return;
        }
        expect(got === value).toBe(true); // === so that -0 and 0 agree, as in JSON
      }),
      { numRuns: 500 },
    );
  });
});

describe('applying attributes to a position', () => {
  const fields = (): PositionFields => ({
    deviceId: 1,
    protocol: 'osmand',
    latitude: -23.5,
    longitude: -46.6,
    altitude: 700,
    speed: 20,
    course: 90,
    accuracy: 5,
    valid: true,
    fixTime: Date.parse('2024-05-01T12:00:00Z'),
    deviceTime: Date.parse('2024-05-01T12:00:00Z'),
    serverTime: Date.parse('2024-05-01T12:00:01Z'),
  });
  let nextId = 1;
  const attr = (attribute: string, expression: string, type: string, priority = 0): ComputedAttribute => ({
    id: nextId++,
    attribute,
    expression,
    type,
    priority,
  });

  it('sorts by priority, higher first, ties by id', () => {
    const a = { id: 1, priority: 0 };
    const b = { id: 2, priority: 5 };
    const c = { id: 3, priority: 0 };
    const d = { id: 4, priority: -1 };
    expect(sortByPriority([c, d, a, b]).map((x) => x.id)).toEqual([2, 1, 3, 4]);
  });

  it('coerces results to the declared type or refuses', () => {
    expect(coerce(12.5, 'number')).toBe(12.5);
    expect(coerce('12.5', 'number')).toBe(12.5);
    expect(coerce(true, 'number')).toBe(1);
    expect(coerce('abc', 'number')).toBeUndefined();
    expect(coerce('', 'number')).toBeUndefined();
    expect(coerce(0, 'boolean')).toBe(false);
    expect(coerce(2, 'boolean')).toBe(true);
    expect(coerce('TRUE', 'boolean')).toBe(true);
    expect(coerce('yes', 'boolean')).toBeUndefined();
    expect(coerce(3, 'string')).toBe('3');
    expect(coerce(false, 'string')).toBe('false');
    expect(coerce(null, 'string')).toBeUndefined();
    expect(coerce(1, 'date')).toBeUndefined();
  });

  it('writes attributes and fields in order; later attributes see earlier results; failures are skipped', () => {
    const f = fields();
    const attrs: Record<string, unknown> = { adc1: 2500, ignition: true };
    const skipped: string[] = [];
    const list = sortByPriority([
      attr('fuelPct', 'fuelLitres / 60 * 100', 'number', 1), // runs after fuelLitres (priority 2)
      attr('fuelLitres', 'adc1 * 0.024', 'number', 2),
      attr('speed', 'speed * 2', 'number', 0),
      attr('valid', 'accuracy < 10', 'boolean', 0),
      attr('label', "ignition ? 'running' : 'parked'", 'string', 0),
      attr('broken', 'adc1 / 0', 'number', 0),
      attr('notNumber', "'abc'", 'number', 0),
      attr('nothing', 'nosuch', 'string', 0),
      attr('altitude', "'high'", 'string', 0), // a field target needs a number
      attr('syntax', 'adc1 +', 'number', 0),
    ]);
    applyComputedAttributes(list, f, attrs, (a, reason) => skipped.push(`${a.attribute}:${reason}`));
    expect(attrs.fuelLitres).toBe(60);
    expect(attrs.fuelPct).toBe(100);
    expect(f.speed).toBe(40);
    expect(f.valid).toBe(true);
    expect(attrs.label).toBe('running');
    expect(f.altitude).toBe(700);
    expect(attrs).not.toHaveProperty('speed');
    expect(attrs).not.toHaveProperty('broken');
    expect(attrs).not.toHaveProperty('notNumber');
    expect(attrs).not.toHaveProperty('nothing');
    expect(skipped.sort()).toEqual(
      ['altitude:type', 'broken:error', 'nothing:null', 'notNumber:type', 'syntax:error'].sort(),
    );
  });

  it('reads position fields before attributes, times as epoch ms', () => {
    const f = fields();
    const attrs: Record<string, unknown> = { speed: 999 };
    applyComputedAttributes(
      [
        attr('s', 'speed', 'number'),
        attr('age', 'serverTime - fixTime', 'number'),
        attr('where', "protocol + ':' + deviceId", 'string'),
      ],
      f,
      attrs,
    );
    expect(attrs.s).toBe(20);
    expect(attrs.age).toBe(1000);
    expect(attrs.where).toBe('osmand:1');
  });
});
