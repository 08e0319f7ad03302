import { describe, expect, it } from 'vitest';
import {
  computedToForm,
  emptyComputedForm,
  parseComputedForm,
  readComputedTest,
  type ComputedFormValues,
} from '../src/computedForm.ts';
import { computedAttributeInput } from '../src/schemas/entities.ts';

const form = (over: Partial<ComputedFormValues> = {}): ComputedFormValues => ({
  ...emptyComputedForm(),
  description: 'Speed in km/h',
  attribute: 'speedKmh',
  expression: 'speed * 1.852',
  ...over,
});

describe('computed attribute form', () => {
  it('a new form is a number attribute of priority 0', () => {
    expect(emptyComputedForm()).toEqual({
      id: 0,
      description: '',
      attribute: '',
      expression: '',
      type: 'number',
      priority: '0',
    });
  });

  it('speedKmh = speed * 1.852 (number) becomes the CONTRACT Attribute body the server accepts', () => {
    const r = parseComputedForm(form({ description: '  Speed in km/h ', priority: '5' }));
    expect(r).toEqual({
      ok: true,
      attribute: {
        id: 0,
        description: 'Speed in km/h',
        attribute: 'speedKmh',
        expression: 'speed * 1.852',
        type: 'number',
        priority: 5,
      },
    });
    if (r.ok) expect(computedAttributeInput.parse(r.attribute)).toEqual(r.attribute);
  });

  it('an empty priority is 0; negative priorities are allowed', () => {
    const empty = parseComputedForm(form({ priority: ' ' }));
    expect(empty.ok && empty.attribute.priority).toBe(0);
    const negative = parseComputedForm(form({ priority: '-3' }));
    expect(negative.ok && negative.attribute.priority).toBe(-3);
  });

  it('requires description, attribute and expression', () => {
    const r = parseComputedForm(form({ description: ' ', attribute: '', expression: '  ' }));
    expect(r).toEqual({
      ok: false,
      errors: {
        description: 'validation.descriptionRequired',
        attribute: 'validation.attributeRequired',
        expression: 'validation.expressionRequired',
      },
    });
  });

  it('an attribute key starts with a letter or _ and has no spaces', () => {
    for (const bad of ['1speed', 'speed kmh', 'velocidade/h', '-x']) {
      expect(parseComputedForm(form({ attribute: bad }))).toEqual({
        ok: false,
        errors: { attribute: 'validation.attributeKey' },
      });
    }
    for (const good of ['speedKmh', '_x', 'io.239', 'fuel-level', 'adc1']) {
      expect(parseComputedForm(form({ attribute: good })).ok).toBe(true);
    }
  });

  it('limits: attribute 128, expression 8,192 characters (as the server schema)', () => {
    expect(parseComputedForm(form({ attribute: 'a'.repeat(128) })).ok).toBe(true);
    expect(parseComputedForm(form({ attribute: 'a'.repeat(129) }))).toEqual({
      ok: false,
      errors: { attribute: 'validation.tooLong' },
    });
    expect(parseComputedForm(form({ expression: '1'.repeat(8192) })).ok).toBe(true);
    expect(parseComputedForm(form({ expression: '1'.repeat(8193) }))).toEqual({
      ok: false,
      errors: { expression: 'validation.tooLong' },
    });
  });

  it('priority must be a whole 32-bit number', () => {
    for (const bad of ['1.5', 'abc', '2147483648', '99999999999']) {
      expect(parseComputedForm(form({ priority: bad }))).toEqual({
        ok: false,
        errors: { priority: 'validation.priority' },
      });
    }
    expect(parseComputedForm(form({ priority: '2147483647' })).ok).toBe(true);
  });

  it('type is string, number or boolean', () => {
    for (const type of ['string', 'number', 'boolean'] as const)
      expect(parseComputedForm(form({ type })).ok).toBe(true);
    expect(parseComputedForm(form({ type: 'date' as never }))).toEqual({
      ok: false,
      errors: { type: 'validation.type' },
    });
  });

  it('editing starts from the stored attribute', () => {
    expect(
      computedToForm({
        id: 7,
        description: 'Ignition text',
        attribute: 'ign',
        expression: 'ignition ? "on" : "off"',
        type: 'string',
        priority: 2,
      }),
    ).toEqual({
      id: 7,
      description: 'Ignition text',
      attribute: 'ign',
      expression: 'ignition ? "on" : "off"',
      type: 'string',
      priority: '2',
    });
  });
});

describe('reading the test answer', () => {
  it('200 JSON number or boolean, 200 text, 204 null', () => {
    expect(readComputedTest(200, 'application/json; charset=utf-8', '37.04')).toEqual({
      kind: 'value',
      value: 37.04,
    });
    expect(readComputedTest(200, 'application/json', 'true')).toEqual({ kind: 'value', value: true });
    expect(readComputedTest(200, 'text/plain; charset=utf-8', 'on')).toEqual({ kind: 'value', value: 'on' });
    expect(readComputedTest(204, '', '')).toEqual({ kind: 'null' });
  });

  it('400 is the parse error without its exception prefix', () => {
    expect(
      readComputedTest(
        400,
        'text/plain',
        'IllegalArgumentException: expression: expected ")" but found "end of expression" at position 11',
      ),
    ).toEqual({
      kind: 'error',
      message: 'expression: expected ")" but found "end of expression" at position 11',
    });
    expect(readComputedTest(400, 'text/plain', 'SecurityException: Administrator access required')).toEqual({
      kind: 'error',
      message: 'Administrator access required',
    });
    expect(readComputedTest(500, 'text/plain', '')).toEqual({ kind: 'error', message: 'HTTP 500' });
  });
});
