// Saved and ad-hoc command forms (SPEC §3 "Saved command", "Command payload"): type, description, textChannel
// and the attributes each type takes (Traccar's command keys). Messages are keys of the `commands` namespace.
import { COMMAND_TYPES, type Attributes, type Command } from '@rastro/domain';
import { z } from 'zod';

export type AttrKind = 'string' | 'number' | 'boolean';
export interface AttrField {
  key: string;
  kind: AttrKind;
}

const f = (key: string, kind: AttrKind = 'string'): AttrField => ({ key, kind });

/** The attributes each command type carries (others take none). */
export const COMMAND_ATTRIBUTES: Partial<Record<string, AttrField[]>> = {
  custom: [f('data')],
  positionPeriodic: [f('frequency', 'number')],
  setTimezone: [f('timezone')],
  sendSms: [f('phone'), f('message')],
  sendUssd: [f('phone')],
  message: [f('message')],
  sosNumber: [f('index', 'number'), f('phone')],
  silenceTime: [f('data')],
  setPhonebook: [f('data')],
  voiceMessage: [f('data')],
  outputControl: [f('index', 'number'), f('data')],
  voiceMonitoring: [f('enable', 'boolean')],
  setAgps: [f('enable', 'boolean')],
  setIndicator: [f('data')],
  configuration: [f('data')],
  setConnection: [f('server'), f('port', 'number')],
  setOdometer: [f('data')],
  setSpeedLimit: [f('data')],
  modePowerSaving: [f('enable', 'boolean')],
  modeDeepSleep: [f('enable', 'boolean')],
  alarmSos: [f('enable', 'boolean')],
  alarmBattery: [f('enable', 'boolean')],
  alarmRemove: [f('enable', 'boolean')],
  alarmClock: [f('data')],
  alarmSpeed: [f('data')],
  alarmFall: [f('enable', 'boolean')],
  alarmVibration: [f('enable', 'boolean')],
  firmwareUpdate: [f('data')],
  requestPhoto: [f('index', 'number')],
  videoStart: [f('index', 'number')],
  videoStop: [f('index', 'number')],
};

export const attributeFields = (type: string): AttrField[] => COMMAND_ATTRIBUTES[type] ?? [];

export interface CommandFormValues {
  id: number;
  type: string;
  description: string;
  textChannel: boolean;
  /** As typed: strings for text/number fields, booleans for switches. */
  attributes: Record<string, string | boolean>;
}

export const emptyCommandForm = (type = 'custom'): CommandFormValues => ({
  id: 0,
  type,
  description: '',
  textChannel: false,
  attributes: {},
});

export function commandToForm(c: Command): CommandFormValues {
  const attributes: Record<string, string | boolean> = {};
  for (const field of attributeFields(c.type)) {
    const v = c.attributes?.[field.key];
    if (v === undefined || v === null) continue;
    attributes[field.key] = field.kind === 'boolean' ? v === true || v === 'true' : String(v);
  }
  return {
    id: c.id,
    type: c.type,
    description: c.description ?? '',
    textChannel: !!c.textChannel,
    attributes,
  };
}

/**
 * Validates and converts the form: type is a known command type ('commands:validation.typeRequired'),
 * description at most 128 characters, number fields are numbers, custom needs its data.
 */
export function parseCommandForm(
  v: CommandFormValues,
  { requireDescription = false }: { requireDescription?: boolean } = {},
): { ok: true; command: Command } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const type = z.enum(COMMAND_TYPES).safeParse(v.type);
  if (!type.success) errors.type = 'validation.typeRequired';
  const description = v.description.trim();
  if (requireDescription && !description) errors.description = 'validation.descriptionRequired';
  if (description.length > 128) errors.description = 'validation.tooLong';
  const attributes: Attributes = {};
  for (const field of attributeFields(v.type)) {
    const raw = v.attributes[field.key];
    if (field.kind === 'boolean') {
      attributes[field.key] = raw === true;
      continue;
    }
    const s = typeof raw === 'string' ? raw.trim() : '';
    if (!s) {
      if (v.type === 'custom' && field.key === 'data')
        errors[`attributes.${field.key}`] = 'validation.dataRequired';
      continue;
    }
    if (field.kind === 'number') {
      const n = Number(s.replace(',', '.'));
      if (!Number.isFinite(n)) errors[`attributes.${field.key}`] = 'validation.number';
      else attributes[field.key] = n;
    } else if (s.length > 1024) {
      errors[`attributes.${field.key}`] = 'validation.tooLong';
    } else attributes[field.key] = s;
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    command: {
      id: v.id,
      deviceId: 0,
      type: v.type,
      description: description || null,
      textChannel: v.textChannel,
      attributes,
    },
  };
}
