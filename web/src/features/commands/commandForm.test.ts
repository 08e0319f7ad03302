// Command forms: attributes by type, validation keys, conversion to the Command payload.
import { describe, expect, it } from 'vitest';
import { attributeFields, commandToForm, emptyCommandForm, parseCommandForm } from './commandForm.ts';

describe('commandForm', () => {
  it('knows the attributes of each type', () => {
    expect(attributeFields('custom')).toEqual([{ key: 'data', kind: 'string' }]);
    expect(attributeFields('positionPeriodic')).toEqual([{ key: 'frequency', kind: 'number' }]);
    expect(attributeFields('engineStop')).toEqual([]);
  });

  it('requires a known type, custom data, numbers for number fields and a description when asked', () => {
    expect(parseCommandForm({ ...emptyCommandForm(), type: 'nope' })).toEqual({
      ok: false,
      errors: { type: 'validation.typeRequired' },
    });
    expect(parseCommandForm(emptyCommandForm('custom'))).toEqual({
      ok: false,
      errors: { 'attributes.data': 'validation.dataRequired' },
    });
    expect(
      parseCommandForm({ ...emptyCommandForm('positionPeriodic'), attributes: { frequency: 'x' } }),
    ).toEqual({ ok: false, errors: { 'attributes.frequency': 'validation.number' } });
    expect(parseCommandForm(emptyCommandForm('engineStop'), { requireDescription: true })).toEqual({
      ok: false,
      errors: { description: 'validation.descriptionRequired' },
    });
  });

  it('converts to the Command payload (numbers parsed, booleans kept, empty description null)', () => {
    expect(
      parseCommandForm({ ...emptyCommandForm('positionPeriodic'), attributes: { frequency: '60' } }),
    ).toEqual({
      ok: true,
      command: {
        id: 0,
        deviceId: 0,
        type: 'positionPeriodic',
        description: null,
        textChannel: false,
        attributes: { frequency: 60 },
      },
    });
    const r = parseCommandForm({
      ...emptyCommandForm('modePowerSaving'),
      id: 4,
      description: ' Save ',
      textChannel: true,
      attributes: { enable: true },
    });
    expect(r).toMatchObject({
      ok: true,
      command: { id: 4, description: 'Save', textChannel: true, attributes: { enable: true } },
    });
  });

  it('round-trips a saved command into the form', () => {
    expect(
      commandToForm({
        id: 3,
        deviceId: 0,
        type: 'outputControl',
        description: 'Relay',
        textChannel: false,
        attributes: { index: 1, data: '1' },
      }),
    ).toEqual({
      id: 3,
      type: 'outputControl',
      description: 'Relay',
      textChannel: false,
      attributes: { index: '1', data: '1' },
    });
  });
});
