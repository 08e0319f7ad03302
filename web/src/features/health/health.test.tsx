import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, renderWithProviders } from '../../components/testing.tsx';
import type { ServerHealth, SslStatus } from './api.ts';
import { ServerHealthPage } from './ServerHealthPage.tsx';

const health: ServerHealth = {
  status: 'ok',
  mode: 'embedded',
  version: '1.4.0',
  time: '2026-11-22T10:00:00.000Z',
  startedAt: '2026-11-20T06:56:55.000Z',
  uptimeSeconds: 2 * 86_400 + 3 * 3600 + 4 * 60 + 5,
  node: 'v20.19.0',
  platform: 'linux x64',
  cpus: 2,
  loadAverage: [0.5, 0.25, 0.1],
  memory: {
    rss: 150 * 1024 * 1024,
    heapUsed: 60 * 1024 * 1024,
    heapTotal: 80 * 1024 * 1024,
    systemTotal: 4 * 1024 ** 3,
    systemFree: 1024 ** 3,
  },
  disk: { free: 20 * 1024 ** 3, total: 40 * 1024 ** 3 },
  database: { kind: 'sqlite', sizeBytes: 12.5 * 1024 * 1024, walBytes: 4096 },
  devices: { total: 30, online: 26, offline: 3, unknown: 1 },
  positions: {
    received: 1210,
    stored: 1200,
    rejected: 10,
    events: 42,
    perSecond: 12.5,
    perSecondSinceStart: 0.01,
  },
  sockets: { clients: 3 },
  upstream: null,
};
const ssl: SslStatus = {
  managedBy: 'proxy',
  protocol: 'https',
  https: true,
  host: 'frota.example.com',
  renewable: false,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ServerHealthPage', () => {
  it('shows the server figures and the SSL status it is given', async () => {
    const f = fakeFetch((url) => (url === '/api/ssl/check' ? json(ssl) : json(health)));
    vi.stubGlobal('fetch', f.fn);
    renderWithProviders(<ServerHealthPage />, { locale: 'en-US' });
    expect((await screen.findByTestId('health-uptime')).textContent).toBe('2 d 03 h 04 min');
    expect(screen.getByTestId('health-status').textContent).toBe('Running');
    expect(screen.getByTestId('health-rss').textContent).toBe('150 MB');
    expect(screen.getByTestId('health-db-size').textContent).toBe('12.5 MB');
    expect(screen.getByTestId('health-db-kind').textContent).toBe('SQLite');
    expect(screen.queryByTestId('health-jobs')).toBeNull();
    expect(screen.getByTestId('health-disk').textContent).toBe('20 GB free of 40 GB');
    expect(screen.getByTestId('health-devices-total').textContent).toBe('30');
    expect(screen.getByTestId('health-devices-online').textContent).toBe('26');
    expect(screen.getByTestId('health-positions-rate').textContent).toBe('12.5');
    expect(screen.getByTestId('health-positions-stored').textContent).toBe('1,200');
    expect(screen.getByTestId('health-clients').textContent).toBe('3');
    expect(screen.queryByTestId('health-upstream')).toBeNull();
    expect((await screen.findByTestId('health-ssl-https')).textContent).toBe('HTTPS');
    expect(screen.getByTestId('health-ssl-managed').textContent).toContain('reverse proxy');
    expect(f.calls.map((c) => c.url).sort()).toEqual(['/api/server-health', '/api/ssl/check']);
  });

  it('on PostgreSQL: the store, no journal size, and whether this process runs the background jobs', async () => {
    const onPostgres = (leader: boolean): ServerHealth => ({
      ...health,
      database: { kind: 'postgres', sizeBytes: 8 * 1024 * 1024, walBytes: 0 },
      cluster: { node: 'n1', leader },
    });
    vi.stubGlobal(
      'fetch',
      fakeFetch((url) => (url === '/api/ssl/check' ? json(ssl) : json(onPostgres(false)))).fn,
    );
    renderWithProviders(<ServerHealthPage />, { locale: 'pt-BR' });
    expect((await screen.findByTestId('health-db-kind')).textContent).toBe('PostgreSQL');
    expect(screen.getByTestId('health-jobs').textContent).toBe('Rodam em outro processo');
    expect(screen.queryByText('Diário (WAL)')).toBeNull();
    cleanup();
    vi.stubGlobal(
      'fetch',
      fakeFetch((url) => (url === '/api/ssl/check' ? json(ssl) : json(onPostgres(true)))).fn,
    );
    renderWithProviders(<ServerHealthPage />, { locale: 'es' });
    expect((await screen.findByTestId('health-jobs')).textContent).toBe('Se ejecutan en este proceso');
  });

  it('gateway mode: the upstream card instead of the embedded figures', async () => {
    const gateway: ServerHealth = {
      ...health,
      status: 'degraded',
      mode: 'gateway',
      devices: null,
      positions: null,
      sockets: null,
      upstream: { origin: 'http://traccar:8082', reachable: false, status: null },
    };
    vi.stubGlobal('fetch', fakeFetch((url) => (url === '/api/ssl/check' ? json(ssl) : json(gateway))).fn);
    renderWithProviders(<ServerHealthPage />, { locale: 'pt-BR' });
    expect((await screen.findByTestId('health-status')).textContent).toBe('Degradado');
    expect(screen.getByTestId('health-upstream').textContent).toContain('http://traccar:8082');
    expect(screen.queryByTestId('health-devices')).toBeNull();
    expect(screen.queryByTestId('health-positions')).toBeNull();
  });
});
