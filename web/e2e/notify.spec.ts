// Live notifications: an alarm raises a card with its rule's colour and sound; no sound plays when muted.
import type { Page } from '@playwright/test';
import { accounts, expect, test } from './fixtures.ts';
import { createDevice, sendOsmAnd, tag } from './map-helpers.ts';

interface Rule {
  id: number;
  type: string;
  notificators: string;
  attributes: Record<string, unknown>;
}

/** Records every HTMLMediaElement.play() call (the src) in window.__played, without playing anything. */
async function spyOnAudio(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __played: string[] };
    w.__played = [];
    HTMLMediaElement.prototype.play = function play(this: HTMLMediaElement) {
      w.__played.push(this.src);
      return Promise.resolve();
    };
  });
}

/** The look of the 'sos' web rule the tests make. */
const SOS_STYLE = { color: 'soft-green', sound: 'audio7', position: 'top-left' };

/** Makes a web alarm rule for 'sos' in SOS_STYLE, linked to the signed-in user. */
async function makeSosRule(page: Page): Promise<Rule> {
  const res = await page.request.post('/api/notifications', {
    data: {
      id: 0,
      type: 'alarm',
      always: true,
      notificators: 'web',
      calendarId: 0,
      commandId: 0,
      description: null,
      attributes: {
        alarms: 'sos',
        'rastro.color': SOS_STYLE.color,
        'rastro.sound': SOS_STYLE.sound,
        'rastro.position': SOS_STYLE.position,
      },
    },
  });
  expect(res.ok()).toBe(true);
  return (await res.json()) as Rule;
}

/** The web alarm rule that covers 'sos' (the first, as the app picks), made when the store has none. */
async function sosRule(page: Page): Promise<Rule> {
  const rules = (await (await page.request.get('/api/notifications')).json()) as Rule[];
  const web = rules.filter((r) => r.type === 'alarm' && r.notificators.split(',').includes('web'));
  const found =
    web.find((r) =>
      String(r.attributes.alarms ?? '')
        .split(',')
        .includes('sos'),
    ) ?? web[0];
  if (found) return found;
  return makeSosRule(page);
}

test('an alarm raises a notification with its colour and sound', async ({ page, loginAs }) => {
  // a fresh customer with one vehicle and one rule: the administrator's view also gets the events of every other
  // spec's vehicles, and a batch plays one sound (that of its first card), which need not be this alarm's
  await spyOnAudio(page);
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const dev = await createDevice(page.request, { name: `Alarm ${t}`, uniqueId: `al-${t}` });
  const email = `alarme-${t}@rastro.demo`;
  const made = await page.request.post('/api/users', {
    data: { name: `Alarme ${t}`, email, password: 'demo123', attributes: {} },
  });
  expect(made.ok()).toBe(true);
  const customer = (await made.json()) as { id: number };
  const linked = await page.request.post('/api/permissions', {
    data: { userId: customer.id, deviceId: dev.id },
  });
  expect(linked.ok()).toBe(true);

  await loginAs(email, 'demo123');
  const { color, sound, position } = SOS_STYLE;
  await makeSosRule(page);
  await sendOsmAnd(page.request, { id: dev.uniqueId, lat: -23.5, lon: -46.6 });
  await page.goto('/home');
  await expect
    .poll(() => page.evaluate((id) => window.__rastroMap?.featureIds().includes(id), dev.id))
    .toBe(true);

  await sendOsmAnd(page.request, { id: dev.uniqueId, lat: -23.5, lon: -46.6, alarm: 'sos' });
  const card = page.getByTestId('notification-card').filter({ hasText: dev.name }).first();
  await expect(card).toBeVisible();
  await expect(card).toHaveAttribute('data-color', color);
  await expect(card).toHaveAttribute('data-position', position);
  expect((await card.boundingBox())!.width).toBe(380);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __played: string[] }).__played))
    .toEqual([expect.stringContaining(`/rastro/assets/custom/sounds/${sound}.wav`)]);
  // not pinned: closes by itself after 4500 ms
  await expect(card).toBeHidden({ timeout: 10_000 });
});

test('no sound plays when muted', async ({ page, loginAs }) => {
  await spyOnAudio(page);
  await page.addInitScript(() => localStorage.setItem('isMuted', 'true'));
  await loginAs(accounts.admin.email, accounts.admin.password);
  await sosRule(page);
  const t = tag();
  const dev = await createDevice(page.request, { name: `Mute ${t}`, uniqueId: `mu-${t}` });
  await sendOsmAnd(page.request, { id: dev.uniqueId, lat: -23.5, lon: -46.6 });
  await page.goto('/home');
  await expect
    .poll(() => page.evaluate((id) => window.__rastroMap?.featureIds().includes(id), dev.id))
    .toBe(true);
  await sendOsmAnd(page.request, { id: dev.uniqueId, lat: -23.5, lon: -46.6, alarm: 'sos' });
  const card = page.getByTestId('notification-card').filter({ hasText: dev.name }).first();
  await expect(card).toBeVisible();
  await expect(card).toHaveAttribute('data-sound', 'mute');
  expect(await page.evaluate(() => (window as unknown as { __played: string[] }).__played)).toEqual([]);
});
