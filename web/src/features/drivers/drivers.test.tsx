// Drivers dialog: required fields in pt-BR, the body saved (extra fields in attributes) and the server's
// duplicate-identifier 400 shown translated.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders, text } from '../../components/testing.tsx';
import { useSession } from '../../stores/session.ts';
import { DriversDialog } from './DriversDialog.tsx';

let calls: { url: string; init: RequestInit }[] = [];
let duplicate = false;
beforeEach(() => {
  duplicate = false;
  useSession.setState({
    user: { id: 1, name: 'u', administrator: true, attributes: {} } as unknown as User,
    server: null,
    isPlus: false,
  });
  const f = fakeFetch((_url, init) => {
    if (init.method === 'POST')
      return duplicate ? text('Duplicate uniqueId', 400) : json({ ...JSON.parse(String(init.body)), id: 5 });
    return json([{ id: 1, name: 'Bruno', uniqueId: 'b-1', attributes: { licenseNumber: '999' } }]);
  });
  calls = f.calls;
  vi.stubGlobal('fetch', f.fn);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const props = { onClose: () => undefined, props: {} };

describe('DriversDialog', () => {
  it('requires name and identifier, then saves the fields in attributes', async () => {
    renderWithProviders(<DriversDialog {...props} />);
    expect(await screen.findByText('999')).toBeTruthy();
    fireEvent.click(screen.getByTestId('driver-add'));
    fireEvent.click(await screen.findByTestId('driver-save'));
    expect(await screen.findByText('O campo nome é obrigatório')).toBeTruthy();
    expect(screen.getByText('Informe o identificador do motorista')).toBeTruthy();
    fireEvent.change(screen.getByTestId('driver-name'), { target: { value: 'Ana' } });
    fireEvent.change(screen.getByTestId('driver-uniqueId'), { target: { value: 'a-1' } });
    fireEvent.change(screen.getByTestId('driver-phone'), { target: { value: '+55 11 99999-0000' } });
    fireEvent.click(screen.getByTestId('driver-save'));
    await waitFor(() => expect(calls.some((c) => c.init.method === 'POST')).toBe(true));
    expect(JSON.parse(String(calls.find((c) => c.init.method === 'POST')!.init.body))).toEqual({
      id: 0,
      name: 'Ana',
      uniqueId: 'a-1',
      attributes: { phone: '+55 11 99999-0000' },
    });
  });

  it('shows the duplicate identifier answer translated', async () => {
    duplicate = true;
    renderWithProviders(<DriversDialog {...props} />);
    fireEvent.click(await screen.findByTestId('driver-add'));
    fireEvent.change(await screen.findByTestId('driver-name'), { target: { value: 'Ana' } });
    fireEvent.change(screen.getByTestId('driver-uniqueId'), { target: { value: 'b-1' } });
    fireEvent.click(screen.getByTestId('driver-save'));
    expect(
      (await screen.findAllByText('Já existe um motorista com este identificador')).length,
    ).toBeGreaterThan(0);
  });
});
