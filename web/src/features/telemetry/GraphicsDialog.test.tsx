// The telemetry chart in the reader's locale (issue #29): in pt-BR with no unit chosen, the axis ticks read 24-hour
// times ("06:00") or dd/mm, the legend's time dd/mm/aaaa with a 24-hour clock, values and the stats line use a
// decimal comma and km/h — never uPlot's "6am", "2026-11-27 3:51pm", "11/27/26" or knots.
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { kmhToKnots, type Server, type User } from '@rastro/domain';
import type uPlot from 'uplot';
import { fakeFetch, json, renderWithProviders } from '../../components/testing.tsx';
import { useSession } from '../../stores/session.ts';
import { GraphicsDialog } from './GraphicsDialog.tsx';

const made = vi.hoisted(() => [] as unknown[]);
vi.mock('uplot', () => ({
  default: class {
    constructor(opts: unknown) {
      made.push(opts);
    }
    destroy() {}
    setSize() {}
  },
}));

const T0 = Date.UTC(2026, 10, 27, 15, 51);
const position = (i: number, kmh: number) => ({
  id: i + 1,
  deviceId: 9,
  fixTime: new Date(T0 + i * 60_000).toISOString(),
  deviceTime: new Date(T0 + i * 60_000).toISOString(),
  serverTime: new Date(T0 + i * 60_000).toISOString(),
  latitude: -23.5,
  longitude: -46.6,
  altitude: 0,
  speed: kmhToKnots(kmh),
  course: 0,
  valid: true,
  attributes: {},
});

beforeEach(() => {
  made.length = 0;
  useSession.setState({
    user: { id: 1, name: 'u', administrator: false, attributes: { timezone: 'UTC' } } as unknown as User,
    server: { id: 1, attributes: {} } as unknown as Server,
  });
  vi.stubGlobal('fetch', fakeFetch(() => json([position(0, 30.5), position(1, 50.87)])).fn);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

type Opts = uPlot.Options & {
  series: Array<{ label?: string; value?: (u: unknown, v: number | null) => string }>;
  axes: Array<{
    label?: string;
    values?: (u: unknown, splits: number[], axis: number, space: number, incr: number) => string[];
  }>;
};

async function chart(locale: 'pt-BR' | 'en-US'): Promise<Opts> {
  renderWithProviders(<GraphicsDialog props={{ deviceId: 9 }} onClose={() => undefined} />, { locale });
  await screen.findByTestId('telemetry-chart');
  await waitFor(() => expect(made.length).toBeGreaterThan(0));
  return made[made.length - 1] as Opts;
}

describe('telemetry chart texts', () => {
  it('pt-BR: 24-hour axis ticks, dd/mm, dd/mm/aaaa in the legend, decimal comma and km/h', async () => {
    const o = await chart('pt-BR');
    const x = o.axes[0].values!;
    const hourly = x(
      null,
      [Date.UTC(2026, 10, 27, 6) / 1000, Date.UTC(2026, 10, 27, 12) / 1000],
      0,
      50,
      3600,
    );
    expect(hourly).toEqual(['06:00', '12:00']);
    expect(x(null, [Date.UTC(2026, 10, 27) / 1000], 0, 50, 86_400)).toEqual(['27/11']);
    expect(o.series[0].label).toBe('Hora');
    expect(o.series[0].value!(null, T0 / 1000)).toMatch(/^27\/11\/2026,? 15:51$/);
    expect(o.series[1].label).toBe('Velocidade (km/h)');
    expect(o.series[1].value!(null, 50.87)).toBe('50,87 km/h');
    expect(o.axes[1].label).toBe('km/h');
    expect(o.axes[1].values!(null, [12.5, 50], 1, 50, 12.5)).toEqual(['12,5', '50']);
    const stats = screen.getByTestId('telemetry-stats').textContent ?? '';
    expect(stats).toContain('máx 50,87 km/h');
    expect(stats).not.toMatch(/kn\b/);
  });

  it('en-US keeps Traccar’s knots and a 12-hour clock', async () => {
    const o = await chart('en-US');
    expect(o.series[1].label).toBe('Speed (kn)');
    expect(o.axes[0].values!(null, [Date.UTC(2026, 10, 27, 6) / 1000], 0, 50, 3600)[0]).toMatch(/^6:00\sAM$/);
    expect(o.series[0].value!(null, T0 / 1000)).toMatch(/^11\/27\/2026, 3:51\sPM$/);
  });
});
