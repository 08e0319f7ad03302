import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Event, Notification, User } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders } from '../../components/testing.tsx';
import { useLive } from '../../stores/live.ts';
import { usePrefs } from '../../stores/prefs.ts';
import { useSession } from '../../stores/session.ts';
import { NotifyHost, ruleForEvent } from './NotifyHost.tsx';

const rule = (id: number, type: string, attributes: Notification['attributes'], notificators = 'web') =>
  ({
    id,
    type,
    notificators,
    attributes,
    always: true,
    calendarId: 0,
    commandId: 0,
    description: null,
  }) as Notification;
const event = (id: number, type: string, alarm?: string) =>
  ({
    id,
    type,
    deviceId: 1,
    eventTime: '2024-05-01T12:00:00.000+00:00',
    attributes: alarm ? { alarm } : {},
  }) as unknown as Event;

describe('ruleForEvent', () => {
  it('picks the web rule of the event type; for alarms the rule listing that alarm', () => {
    const rules = [
      rule(1, 'alarm', { alarms: 'powerCut' }),
      rule(2, 'alarm', { alarms: 'sos,tow' }),
      rule(3, 'ignitionOn', {}, 'mail'),
      rule(4, 'ignitionOn', {}),
    ];
    expect(ruleForEvent(event(1, 'alarm', 'sos'), rules)?.id).toBe(2);
    expect(ruleForEvent(event(1, 'alarm', 'jamming'), rules)?.id).toBe(1);
    expect(ruleForEvent(event(1, 'ignitionOn'), rules)?.id).toBe(4);
    expect(ruleForEvent(event(1, 'deviceMoving'), rules)).toBeUndefined();
  });
});

describe('NotifyHost', () => {
  let played: string[];
  beforeEach(() => {
    played = [];
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
      played.push(this.getAttribute('src') ?? this.src);
      return Promise.resolve();
    });
    useLive.getState().clear();
    useLive.getState().setDevices([{ id: 1, name: 'Caminhão 1', attributes: {} } as never]);
    useSession.getState().setUser({ id: 1, attributes: {} } as User);
    usePrefs.getState().setMuted(false);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  let asked: () => boolean = () => false;
  function withRules(rules: Notification[]) {
    const f = fakeFetch((url) => (url.includes('/notifications') ? json(rules) : json([])));
    vi.stubGlobal('fetch', f.fn);
    asked = () => f.calls.some((c) => c.url.includes('/notifications'));
  }

  /** Waits (real timers) until the host asked for the rules, then lets the answer settle: events wait for it. */
  async function rulesLoad() {
    await vi.waitFor(
      () => {
        if (!asked()) throw new Error('the rules were not asked for yet');
      },
      { timeout: 10_000 },
    );
    for (let i = 0; i < 5; i++) await act(async () => void (await new Promise((r) => setTimeout(r, 10))));
  }

  it('shows a 380 px card in the rule colour and corner, plays its sound, closes after 4500 ms', async () => {
    withRules([
      rule(2, 'alarm', {
        alarms: 'sos',
        'rastro.color': 'red',
        'rastro.sound': 'audio3',
        'rastro.position': 'top-left',
      }),
    ]);
    renderWithProviders(<NotifyHost />);
    await rulesLoad(); // rules load
    vi.useFakeTimers();
    act(() => useLive.getState().applyBatch({ events: [event(10, 'alarm', 'sos')] }));
    const card = screen.getByTestId('notification-card');
    expect(card.getAttribute('data-color')).toBe('red');
    expect(card.getAttribute('data-position')).toBe('top-left');
    expect(card.textContent).toContain('Caminhão 1');
    expect(played).toEqual(['/rastro/assets/custom/sounds/audio3.wav']);
    act(() => void vi.advanceTimersByTime(4499));
    expect(screen.queryByTestId('notification-card')).not.toBeNull();
    act(() => void vi.advanceTimersByTime(1));
    expect(screen.queryByTestId('notification-card')).toBeNull();
  });

  it('defaults: bottom-right, audio1; pinned cards never close; muted plays nothing', async () => {
    withRules([rule(4, 'ignitionOn', { 'rastro.pin': true })]);
    usePrefs.getState().setMuted(true);
    renderWithProviders(<NotifyHost />);
    await rulesLoad(); // rules load
    vi.useFakeTimers();
    act(() => useLive.getState().applyBatch({ events: [event(11, 'ignitionOn')] }));
    const card = screen.getByTestId('notification-card');
    expect(card.getAttribute('data-position')).toBe('bottom-right');
    expect(card.getAttribute('data-pinned')).toBe('true');
    expect(card.getAttribute('data-sound')).toBe('mute');
    act(() => void vi.advanceTimersByTime(60_000));
    expect(screen.queryByTestId('notification-card')).not.toBeNull();
    expect(played).toEqual([]);
  });

  it("an event that came before the rules waits for them and takes its rule's colour and sound", async () => {
    let answer: (rules: Notification[]) => void = () => undefined;
    const f = fakeFetch((url) =>
      url.includes('/notifications')
        ? new Promise<Response>((resolve) => (answer = (rules) => resolve(json(rules))))
        : json([]),
    );
    vi.stubGlobal('fetch', f.fn);
    renderWithProviders(<NotifyHost />);
    act(() => useLive.getState().applyBatch({ events: [event(13, 'alarm', 'sos')] }));
    expect(screen.queryByTestId('notification-card')).toBeNull();
    await act(async () => {
      answer([rule(2, 'alarm', { alarms: 'sos', 'rastro.color': 'red', 'rastro.sound': 'audio5' })]);
      await rulesLoad(); // rules load
    });
    expect(screen.getByTestId('notification-card').getAttribute('data-color')).toBe('red');
    expect(played).toEqual(['/rastro/assets/custom/sounds/audio5.wav']);
  });

  it.each([
    [
      'es',
      'Caminhão 1 superó el límite de velocidad: 101,9 km/h (límite 92,6 km/h)',
      'Sierra Norte',
      '12:00:05',
    ],
    [
      'pt-BR',
      'Caminhão 1 excedeu o limite de velocidade: 101,9 km/h (limite 92,6 km/h)',
      'Serra Norte',
      '12:00:05',
    ],
  ] as const)(
    "writes the card in the page's language (%s), not the server's text for the recipient",
    async (locale, text, geofence, time) => {
      const f = fakeFetch((url) =>
        url.includes('/geofences') ? json([{ id: 4, name: geofence, area: '', attributes: {} }]) : json([]),
      );
      vi.stubGlobal('fetch', f.fn);
      asked = () => f.calls.some((c) => c.url.includes('/notifications'));
      renderWithProviders(<NotifyHost />, { locale });
      await rulesLoad(); // rules load
      const server = 'Caminhão 1 excedeu o limite de velocidade: 55 kn (limite 50 kn)';
      const overspeed = {
        ...event(13, 'deviceOverspeed'),
        eventTime: new Date(2024, 4, 1, 12, 0, 5).toISOString(),
        attributes: { speed: 55, speedLimit: 50, message: server },
      } as Event;
      const enter = { ...event(14, 'geofenceEnter'), geofenceId: 4, attributes: { message: 'x' } } as Event;
      act(() => useLive.getState().applyBatch({ events: [overspeed, enter] }));
      const [first, second] = await screen.findAllByTestId('notification-card');
      expect(first.textContent).toContain(text);
      expect(first.textContent).not.toContain(server);
      expect(first.textContent).toContain(time);
      expect(await screen.findByText(new RegExp(geofence))).toBeTruthy();
      expect(second.textContent).toContain(geofence);
    },
  );

  it('without a matching rule: default colour and audio1 when not muted', async () => {
    withRules([]);
    renderWithProviders(<NotifyHost />);
    await rulesLoad(); // rules load
    act(() => useLive.getState().applyBatch({ events: [event(12, 'deviceOnline')] }));
    expect(screen.getByTestId('notification-card').getAttribute('data-color')).toBe('soft-info');
    expect(played).toEqual(['/rastro/assets/custom/sounds/audio1.wav']);
  });
});
