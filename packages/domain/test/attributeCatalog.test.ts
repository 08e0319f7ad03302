import { describe, expect, it } from 'vitest';
import { describeAttributes, formatAttributeValue, KNOWN_ATTRIBUTES, MESSAGE_LOCALES } from '../src/index.ts';
import { defaultMessages, isMessageKey } from '../src/messages.ts';

const ctx = (locale: string, extra: object = {}) => ({ locale, distanceUnit: 'km' as const, ...extra });

describe('attribute catalogue (issue #29: the device detail shows labels, units and local numbers)', () => {
  it('has a label for every known attribute in the three languages', () => {
    for (const key of Object.keys(KNOWN_ATTRIBUTES)) {
      const k = `attributes.${key}`;
      expect(isMessageKey(k), k).toBe(true);
      for (const l of MESSAGE_LOCALES) expect(defaultMessages[l][k as never], `${l} ${k}`).toBeTruthy();
    }
  });

  it('formats each kind with its unit and the decimal comma of pt-BR and es', () => {
    const pt = ctx('pt-BR');
    expect(formatAttributeValue('batteryLevel', 87, pt)).toBe('87%');
    expect(formatAttributeValue('battery', 3.91, pt)).toBe('3,91 V');
    expect(formatAttributeValue('power', 12.5, ctx('es'))).toBe('12,50 V');
    expect(formatAttributeValue('power', 12.5, ctx('en-US'))).toBe('12.50 V');
    expect(formatAttributeValue('totalDistance', 61_100, pt)).toBe('61,10 km');
    expect(formatAttributeValue('odometer', 1_609.344, ctx('en-US', { distanceUnit: 'mi' }))).toBe('1.00 mi');
    expect(formatAttributeValue('hours', 42_300_000, pt)).toBe('11,8 h');
    expect(formatAttributeValue('ignition', true, pt)).toBe('Sim');
    expect(formatAttributeValue('motion', false, pt)).toBe('Não');
    expect(formatAttributeValue('blocked', 'true', ctx('es'))).toBe('Sí');
    expect(formatAttributeValue('charge', false, ctx('en-US'))).toBe('No');
    expect(formatAttributeValue('sat', 9, pt)).toBe('9');
    expect(formatAttributeValue('rssi', 4, pt)).toBe('4');
    expect(formatAttributeValue('rpm', 1850, pt)).toBe('1.850 rpm');
    expect(formatAttributeValue('fuel', 40.25, pt)).toBe('40,3 L');
    expect(formatAttributeValue('temp1', 21.44, pt)).toBe('21,4 °C');
    expect(formatAttributeValue('alarm', 'sos,powerCut', pt)).toBe('SOS, Corte de energia');
    expect(formatAttributeValue('alarm', true, pt)).toBe('Sim');
  });

  it("shows the driver's name for driverUniqueId when known, else the id", () => {
    const names = { driverName: (id: string) => (id === 'D1' ? 'Ana Souza' : undefined) };
    expect(formatAttributeValue('driverUniqueId', 'D1', ctx('pt-BR', names))).toBe('Ana Souza');
    expect(formatAttributeValue('driverUniqueId', 'X9', ctx('pt-BR', names))).toBe('X9');
  });

  it('never shows true/false, raw decimals or a non-number where a number is expected', () => {
    const pt = ctx('pt-BR');
    expect(formatAttributeValue('someFlag', true, pt)).toBe('Sim');
    expect(formatAttributeValue('someFlag', false, ctx('en-US'))).toBe('No');
    expect(formatAttributeValue('someNumber', 61.1, pt)).toBe('61,1');
    expect(formatAttributeValue('someNumber', 3, pt)).toBe('3');
    expect(formatAttributeValue('someText', 'abc', pt)).toBe('abc');
    expect(formatAttributeValue('someObject', { a: 1 }, pt)).toBe('{"a":1}');
    expect(formatAttributeValue('battery', 'n/a', pt)).toBe('n/a');
    expect(formatAttributeValue('battery', null, pt)).toBe('—');
  });

  it('splits known attributes (sorted by label) from the others (raw key, sorted)', () => {
    const out = describeAttributes(
      { totalDistance: 1000, zzz: 1, batteryLevel: 50, ignition: true, aaa: 'x' },
      ctx('pt-BR'),
    );
    expect(out.known.map((a) => [a.key, a.label, a.value])).toEqual([
      ['totalDistance', 'Distância total', '1,00 km'],
      ['ignition', 'Ignição', 'Sim'],
      ['batteryLevel', 'Nível da bateria', '50%'],
    ]);
    expect(out.others.map((a) => [a.key, a.label, a.value])).toEqual([
      ['aaa', 'aaa', 'x'],
      ['zzz', 'zzz', '1'],
    ]);
  });
});
