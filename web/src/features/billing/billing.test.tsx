import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Integration, Invoice, Server, User } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders, text } from '../../components/testing.tsx';
import { useSession } from '../../stores/session.ts';
import { IntegrationsDialog, webhookUrl } from './IntegrationsDialog.tsx';
import { InvoicesDialog } from './InvoicesDialog.tsx';
import { InvoicesManagerDialog, matchesStatus } from './InvoicesManagerDialog.tsx';

const user = (over: Partial<User>): User =>
  ({ id: 7, name: 'Ana', email: 'ana@x.com', attributes: {}, ...over }) as User;
const admin = user({ id: 1, name: 'Admin', email: 'admin', administrator: true });
const server = { id: 1, attributes: { 'rastro.enableBilling': true }, readonly: false } as unknown as Server;

const inv = (over: Partial<Invoice>): Invoice => ({
  id: 1,
  userId: 7,
  dueDate: '2030-01-10',
  value: 89.9,
  status: 'PENDING',
  paidDate: null,
  description: 'Mensalidade',
  invoiceUrl: null,
  externalId: null,
  createdAt: '2026-11-01T00:00:00Z',
  ...over,
});

let posts: { url: string; body: unknown }[];
let invoices: Invoice[];
let integrations: Integration[];

beforeEach(() => {
  posts = [];
  invoices = [
    inv({ id: 3, dueDate: '2030-01-10', status: 'PENDING', invoiceUrl: 'https://www.asaas.com/i/pay_3' }),
    inv({ id: 2, dueDate: '2020-01-10', status: 'OVERDUE', value: 50 }),
    inv({ id: 1, dueDate: '2019-12-10', status: 'RECEIVED_IN_CASH', paidDate: '2019-12-09', value: 40 }),
  ];
  integrations = [
    { key: 'payment', provider: 'asaas', sandbox: true, apiKey: '••••1234', webhookToken: '••••5678' },
    {
      key: 'invoice',
      firstDueDay: 10,
      description: 'Rastreamento',
      fine: 2,
      fineMode: 'PERCENTAGE',
      interest: 1,
      discount: 0,
      discountMode: 'FIXED',
      discountDays: 0,
    },
  ];
  useSession.getState().setServer(server, { licensemode: 'plus', devicelimit: null });
  vi.stubGlobal(
    'fetch',
    fakeFetch((url, init) => {
      const method = init.method ?? 'GET';
      const path = url.split('?')[0];
      if (method === 'POST') {
        const body = init.body ? (JSON.parse(String(init.body)) as unknown) : null;
        posts.push({ url, body });
        if (path === '/rastro/invoices') return json({ ...inv({ id: 9 }), ...(body as object) });
        if (path.startsWith('/rastro/integrations/')) return json(integrations);
        const m = /^\/rastro\/invoices\/(\d+)\/cash$/.exec(path);
        if (m) return json({ ...invoices.find((i) => i.id === Number(m[1])), status: 'RECEIVED_IN_CASH' });
      }
      if (path === '/rastro/invoices') return json(invoices);
      if (path === '/rastro/integrations') return json(integrations);
      if (path === '/api/users') return json([user({}), admin]);
      return text('not found', 404);
    }).fn,
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('InvoicesDialog (My Invoices)', () => {
  it('lists status, value in R$, paid date, pay link on open invoices and highlights overdue ones', async () => {
    useSession.getState().setUser(user({}));
    renderWithProviders(<InvoicesDialog onClose={() => undefined} props={{}} />);
    const rows = await screen.findAllByTestId('invoice-row');
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => within(r).getByTestId('invoice-status').textContent)).toEqual([
      'Pendente',
      'Vencida',
      'Recebida em dinheiro',
    ]);
    expect(within(rows[0]).getByText('R$ 89,90')).toBeTruthy();
    expect(within(rows[0]).getByTestId('invoice-pay').getAttribute('href')).toBe(
      'https://www.asaas.com/i/pay_3',
    );
    expect(rows[1].getAttribute('data-overdue')).toBe('true');
    expect(rows[0].getAttribute('data-overdue')).toBeNull();
    expect(within(rows[2]).getByText('09/12/2019')).toBeTruthy();
    expect(screen.queryByTestId('invoice-cash')).toBeNull();
    expect(screen.getByTestId('invoices-open-total').textContent).toBe(
      '2 faturas em aberto, total R$ 139,90',
    );
  });
});

describe('InvoicesManagerDialog', () => {
  it('filters by status group', () => {
    expect(matchesStatus({ status: 'OVERDUE' }, 'open')).toBe(true);
    expect(matchesStatus({ status: 'CONFIRMED' }, 'paid')).toBe(true);
    expect(matchesStatus({ status: 'CANCELED' }, 'open')).toBe(false);
    expect(matchesStatus({ status: 'CANCELED' }, 'CANCELED')).toBe(true);
    expect(matchesStatus({ status: 'PENDING' }, 'all')).toBe(true);
  });

  it('creates an invoice for the chosen user with the defaults and a decimal comma', async () => {
    useSession.getState().setUser(admin);
    renderWithProviders(<InvoicesManagerDialog onClose={() => undefined} props={{ userId: 7 }} />);
    await screen.findAllByTestId('invoice-row');
    fireEvent.click(screen.getByTestId('invoice-add'));
    expect((screen.getByTestId('invoice-description') as HTMLTextAreaElement).value).toBe('Rastreamento');
    expect((screen.getByTestId('invoice-dueDate') as HTMLInputElement).value).toMatch(/^10\/\d{2}\/\d{4}$/);
    fireEvent.change(screen.getByTestId('invoice-value'), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('invoice-save'));
    expect(
      await screen.findByText('Informe um valor maior que zero, com até 2 casas decimais.'),
    ).toBeTruthy();
    expect(posts).toHaveLength(0);
    fireEvent.change(screen.getByTestId('invoice-value'), { target: { value: '129,50' } });
    fireEvent.change(screen.getByTestId('invoice-dueDate'), { target: { value: '10/02/2030' } });
    fireEvent.click(screen.getByTestId('invoice-save'));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({
      url: '/rastro/invoices',
      body: { userId: 7, value: 129.5, dueDate: '2030-02-10', description: 'Rastreamento' },
    });
  });

  it('marks an open invoice received in cash only after the confirmation', async () => {
    useSession.getState().setUser(admin);
    renderWithProviders(<InvoicesManagerDialog onClose={() => undefined} props={{ userId: 7 }} />);
    const rows = await screen.findAllByTestId('invoice-row');
    expect(within(rows[2]).queryByTestId('invoice-cash')).toBeNull(); // already paid
    fireEvent.click(within(rows[1]).getByTestId('invoice-cash'));
    expect(
      await screen.findByText('Marcar a fatura nº 2 (R$ 50,00) como recebida em dinheiro?'),
    ).toBeTruthy();
    expect(posts).toHaveLength(0);
    fireEvent.click(screen.getByTestId('invoice-confirm-yes'));
    await waitFor(() => expect(posts.map((p) => p.url)).toEqual(['/rastro/invoices/2/cash']));
  });

  it('refuses non-administrators', async () => {
    useSession.getState().setUser(user({}));
    renderWithProviders(<InvoicesManagerDialog onClose={() => undefined} props={{}} />);
    expect(await screen.findByText('Você não tem acesso a esta função.')).toBeTruthy();
  });
});

describe('IntegrationsDialog', () => {
  it('shows the webhook URL and sends the masked secrets back unchanged (the server keeps them)', async () => {
    useSession.getState().setUser(admin);
    renderWithProviders(<IntegrationsDialog onClose={() => undefined} props={{}} />);
    const url = (await screen.findByTestId('integrations-webhookUrl')) as HTMLInputElement;
    expect(url.value).toBe(webhookUrl(window.location.origin, 'rastro'));
    expect(url.value.endsWith('/rastro/billing/webhook')).toBe(true);
    await waitFor(() =>
      expect((screen.getByTestId('integrations-apiKey') as HTMLInputElement).value).toBe('••••1234'),
    );
    fireEvent.click(screen.getByTestId('integrations-sandbox'));
    fireEvent.click(screen.getByTestId('integrations-save-payment'));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({
      url: '/rastro/integrations/payment',
      body: {
        key: 'payment',
        provider: 'asaas',
        sandbox: false,
        apiKey: '••••1234',
        webhookToken: '••••5678',
      },
    });
  });
});

describe('IntegrationsDialog validation', () => {
  it('names the invalid field in the language and sends nothing', async () => {
    useSession.getState().setUser(admin);
    renderWithProviders(<IntegrationsDialog onClose={() => undefined} props={{}} />);
    fireEvent.click(await screen.findByText('Faturas'));
    const day = await screen.findByTestId('integrations-firstDueDay');
    await waitFor(() => expect((day as HTMLInputElement).value).toBe('10'));
    fireEvent.change(day, { target: { value: '31' } });
    fireEvent.click(screen.getByTestId('integrations-save-invoice'));
    expect((await screen.findByTestId('integrations-error')).textContent).toBe(
      'Dados inválidos: Dia do primeiro vencimento',
    );
    expect(posts).toHaveLength(0);
  });
});
