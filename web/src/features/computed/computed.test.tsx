import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ComputedAttribute, User } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders, text } from '../../components/testing.tsx';
import { useSession } from '../../stores/session.ts';
import { loadLinks, saveLinks, testComputed } from './api.ts';
import { ComputedPage } from './ComputedPage.tsx';

const attr: ComputedAttribute = {
  id: 0,
  description: 'Speed in km/h',
  attribute: 'speedKmh',
  expression: 'speed * 1.852',
  type: 'number',
  priority: 0,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('computed attribute calls', () => {
  it('test: POST /api/attributes/computed/test?deviceId= with the attribute; a number, null, the parse error', async () => {
    const answers = [
      json(37.04),
      new Response(null, { status: 204 }),
      text(
        'IllegalArgumentException: expression: expected ")" but found "end of expression" at position 14',
        400,
      ),
    ];
    const f = fakeFetch(() => answers.shift()!);
    vi.stubGlobal('fetch', f.fn);
    expect(await testComputed(attr, 1)).toEqual({ kind: 'value', value: 37.04 });
    expect(f.calls[0].url).toBe('/api/attributes/computed/test?deviceId=1');
    expect(f.calls[0].init.method).toBe('POST');
    expect(JSON.parse(String(f.calls[0].init.body))).toEqual(attr);
    expect(await testComputed(attr, 1)).toEqual({ kind: 'null' });
    expect(await testComputed({ ...attr, expression: 'speed * (1.852' }, 1)).toEqual({
      kind: 'error',
      message: 'expression: expected ")" but found "end of expression" at position 14',
    });
  });

  it('links: reads device links of the attribute, then links the new and unlinks the dropped ones', async () => {
    const f = fakeFetch((url) =>
      url.startsWith('/api/permissions?')
        ? json([
            { deviceId: 3, attributeId: 9 },
            { deviceId: 5, attributeId: 9 },
          ])
        : new Response(null, { status: 204 }),
    );
    vi.stubGlobal('fetch', f.fn);
    const current = await loadLinks('device', 9);
    expect(f.calls[0].url).toBe('/api/permissions?deviceId=0&attributeId=9');
    expect(current).toEqual([3, 5]);
    await saveLinks('device', 9, current, [5, 7]);
    const writes = f.calls.slice(1).map((c) => [c.init.method, JSON.parse(String(c.init.body))]);
    expect(writes).toEqual([
      ['POST', { deviceId: 7, attributeId: 9 }],
      ['DELETE', { deviceId: 3, attributeId: 9 }],
    ]);
    await saveLinks('group', 9, [], [2]);
    expect(JSON.parse(String(f.calls[f.calls.length - 1].init.body))).toEqual({ groupId: 2, attributeId: 9 });
  });
});

describe('ComputedPage', () => {
  const list = [
    { ...attr, id: 1, priority: 1 },
    {
      id: 2,
      description: 'Ignition text',
      attribute: 'ign',
      expression: 'ignition ? "on" : "off"',
      type: 'string',
      priority: 5,
    },
  ];

  it('lists by priority; administrators get add, edit and delete', async () => {
    vi.stubGlobal('fetch', fakeFetch(() => json(list)).fn);
    useSession.getState().setUser({ id: 1, administrator: true, attributes: {} } as unknown as User);
    renderWithProviders(<ComputedPage />);
    const rows = await screen.findAllByTestId('computed-row');
    expect(rows.map((r) => r.getAttribute('data-attribute'))).toEqual(['ign', 'speedKmh']);
    expect(rows[1].textContent).toContain('Número');
    expect(rows[0].textContent).toContain('Texto');
    expect(screen.getByTestId('computed-add')).toBeTruthy();
    expect(screen.getAllByTestId('computed-delete')).toHaveLength(2);
    fireEvent.click(screen.getAllByTestId('computed-delete')[1]);
    expect((await screen.findByTestId('computed-delete-confirm')).textContent).toContain(
      'Excluir o atributo calculado Speed in km/h?',
    );
  });

  it('others only read', async () => {
    vi.stubGlobal('fetch', fakeFetch(() => json(list)).fn);
    useSession.getState().setUser({ id: 2, administrator: false, attributes: {} } as unknown as User);
    renderWithProviders(<ComputedPage />);
    expect(await screen.findAllByTestId('computed-row')).toHaveLength(2);
    expect(screen.queryByTestId('computed-add')).toBeNull();
    expect(screen.queryByTestId('computed-edit')).toBeNull();
  });
});
