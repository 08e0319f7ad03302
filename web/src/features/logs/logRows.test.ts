// Advanced logs rows: the answer is checked, each action becomes who / what / which object / where.
import { describe, expect, it } from 'vitest';
import { filterLogRows, logsPath, oldSpeedOf, parseLogs, toLogRows, type ActionLog } from './logRows.ts';

const action = (over: Partial<ActionLog>): ActionLog => ({
  id: 1,
  actionTime: '2026-11-22T10:00:00.000+00:00',
  address: '127.0.0.1',
  userId: 1,
  userEmail: 'admin',
  actionType: 'edit',
  objectType: 'device',
  objectId: 7,
  attributes: {},
  ...over,
});

const names = {
  action: (t: string, a: Record<string, unknown>) =>
    t === 'command'
      ? `${String(a.type)} ${String(a.outcome)}`
      : ({ edit: 'Edição', create: 'Criação', login: 'Entrada' }[t] ?? t),
  objectType: (t: string) => ({ device: 'Dispositivo', user: 'Usuário' })[t] ?? t,
  device: (id: number) => (id === 7 ? 'Truck 7' : undefined),
  user: (id: number) => (id === 2 ? 'ana@example.com' : undefined),
};

describe('logsPath', () => {
  it('maps the scope to its path and waits for a chosen user or device', () => {
    expect(logsPath('server', null)).toBe('/server/logs');
    expect(logsPath('user', 2)).toBe('/users/2/logs');
    expect(logsPath('device', 7)).toBe('/devices/7/logs');
    expect(logsPath('device', null)).toBeNull();
    expect(logsPath('user', 0)).toBeNull();
  });
});

describe('parseLogs', () => {
  it('accepts a list of actions and refuses anything else', () => {
    expect(parseLogs([action({})])).toHaveLength(1);
    expect(parseLogs({ error: 'x' })).toBeNull();
    expect(parseLogs([{ id: 'one' }])).toBeNull();
  });
});

describe('toLogRows and filterLogRows', () => {
  it('names the user, action and object, with #id when the name is unknown', () => {
    const rows = toLogRows(
      [
        action({}),
        action({ id: 2, userEmail: null, userId: 2, actionType: 'login', objectType: 'user', objectId: 2 }),
        action({ id: 3, objectId: 99, actionType: 'create', address: null }),
        action({ id: 4, objectType: null, actionType: 'purge' }),
      ],
      names,
    );
    expect(rows.map((r) => [r.user, r.action, r.object, r.address])).toEqual([
      ['admin', 'Edição', 'Dispositivo Truck 7', '127.0.0.1'],
      ['ana@example.com', 'Entrada', 'Usuário ana@example.com', '127.0.0.1'],
      ['admin', 'Criação', 'Dispositivo #99', ''],
      ['admin', 'purge', '', '127.0.0.1'],
    ]);
    expect(rows[0].time).toBe(Date.parse('2026-11-22T10:00:00Z'));
    expect(filterLogRows(rows, 'TRUCK').map((r) => r.key)).toEqual([1]);
    expect(filterLogRows(rows, '  ')).toHaveLength(4);
    expect(filterLogRows(rows, 'ana@').map((r) => r.key)).toEqual([2]);
  });

  it('an engine command row is named from its attributes (type and outcome), so a refusal can be searched', () => {
    const rows = toLogRows(
      [
        action({
          id: 5,
          actionType: 'command',
          attributes: { type: 'engineStop', outcome: 'refused', speed: 30 },
        }),
      ],
      names,
    );
    expect(rows[0].action).toBe('engineStop refused');
    expect(filterLogRows(rows, 'refused').map((r) => r.key)).toEqual([5]);
  });
});

describe('oldSpeedOf', () => {
  it('an engine block let through on an old speed reads that speed and its age; other entries have none', () => {
    expect(oldSpeedOf({ type: 'engineStop', outcome: 'queued', speed: 30, speedAge: 725 }, 'pt-BR')).toEqual({
      speed: 30,
      age: 'há 12 minutos',
    });
    expect(oldSpeedOf({ speed: 30, speedAge: 7200 }, 'en-US')).toEqual({ speed: 30, age: '2 hours ago' });
    expect(oldSpeedOf({ type: 'engineStop', outcome: 'refused', speed: 30, limit: 20 }, 'pt-BR')).toBeNull();
    expect(oldSpeedOf({ speed: 'x', speedAge: 60 }, 'pt-BR')).toBeNull();
  });
});
