// Notification rules (SPEC §2 /notifications, dialogs `notifications` and `events`, §3, §5, §9): the admin creates
// an alarm rule through the form (validation first), the live popup takes its colour and sound, it is edited,
// tested and deleted; the events dialog links a rule to chosen devices; a read-only user cannot create.
import type { APIRequestContext, Page } from '@playwright/test';
import { accounts, expect, test } from './fixtures.ts';
import { createDevice, sendOsmAnd, tag } from './map-helpers.ts';

interface Rule {
  id: number;
  type: string;
  description: string | null;
  notificators: string;
  always: boolean;
  calendarId: number;
  attributes: Record<string, unknown>;
}

const ALARM_NAMES: Record<string, string> = {
  accident: 'Acidente',
  tow: 'Reboque',
  geofence: 'Cerca',
  overspeed: 'Excesso de velocidade',
};

/** An alarm no web alarm rule of the caller covers yet, so the popup can only take the new rule's style. */
async function freeAlarm(request: APIRequestContext): Promise<string> {
  const rules = (await (await request.get('/api/notifications')).json()) as Rule[];
  const used = new Set(
    rules
      .filter((r) => r.type === 'alarm' && r.notificators.split(',').includes('web'))
      .flatMap((r) => String(r.attributes.alarms ?? '').split(',')),
  );
  const free = Object.keys(ALARM_NAMES).find((a) => !used.has(a));
  if (!free) throw new Error('every test alarm is already covered by a web alarm rule');
  return free;
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
const played = (page: Page) => page.evaluate(() => (window as unknown as { __played: string[] }).__played);

async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const findRule = async (request: APIRequestContext, description: string, query = '') =>
  ((await (await request.get(`/api/notifications${query}`)).json()) as Rule[]).find(
    (r) => r.description === description,
  );

const ICS = Buffer.from(
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Rastro//e2e//EN',
    'BEGIN:VEVENT',
    'UID:h11@rastro',
    'DTSTART:20240101T000000Z',
    'DTEND:20240101T235959Z',
    'RRULE:FREQ=DAILY',
    'END:VEVENT',
    'END:VCALENDAR',
  ].join('\r\n'),
).toString('base64');

test('admin creates an alarm rule whose colour and sound drive the popup, edits, tests and deletes it', async ({
  page,
  loginAs,
}) => {
  await spyOnAudio(page);
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const name = `Regra ${t}`;
  const alarm = await freeAlarm(page.request);

  await page.goto('/notifications');
  await page.getByTestId('rule-add').click();
  const form = page.getByTestId('rule-form');
  await expect(form.getByTestId('rule-save')).toBeVisible();
  // validation first: an alarm rule without alarms, then without channels
  await page.getByTestId('rule-save').click();
  await expect(form.getByText('Selecione pelo menos um alarme')).toBeVisible();
  await page.getByTestId('rule-channels').click();
  await page.getByTestId('rule-channels').press('Backspace');
  await page.getByTestId('rule-channels').press('Tab');
  await page.getByTestId('rule-save').click();
  await expect(form.getByText('Selecione pelo menos um canal')).toBeVisible();

  await page.getByTestId('rule-description').fill(name);
  await pick(page, 'rule-alarms', ALARM_NAMES[alarm]);
  await page.getByTestId('rule-alarms').press('Tab');
  await pick(page, 'rule-channels', 'Web');
  await page.getByTestId('rule-channels').press('Tab');
  await pick(page, 'rule-color', 'Vermelho');
  await expect(page.getByTestId('rule-color-preview')).toHaveAttribute('data-color', 'red');
  await pick(page, 'rule-sound', 'Som 5');
  await page.getByTestId('rule-sound-play').click();
  await expect
    .poll(() => played(page))
    .toContainEqual(expect.stringContaining('/rastro/assets/custom/sounds/audio5.wav'));
  // the played file exists
  expect((await page.request.get('/rastro/assets/custom/sounds/audio5.wav')).status()).toBe(200);
  await page.getByTestId('rule-save').click();
  await expect(page.getByText('Regra salva')).toBeVisible();

  const row = page.getByTestId('rule-row').filter({ hasText: name });
  await expect(row).toContainText('Alarme');
  await expect(row).toContainText(ALARM_NAMES[alarm]);
  await expect(row.getByTestId('rule-channel')).toHaveText(['Web']);
  await expect(row.getByTestId('rule-swatch')).toHaveAttribute('data-color', 'red');
  await expect(row.getByTestId('rule-always-yes')).toBeVisible();
  const rule = await findRule(page.request, name);
  expect(rule).toMatchObject({
    type: 'alarm',
    notificators: 'web',
    always: true,
    attributes: { alarms: alarm, 'rastro.color': 'red', 'rastro.sound': 'audio5', 'rastro.pin': false },
  });

  // search
  await page.getByTestId('rules-search').fill(t);
  await expect(page.getByTestId('rule-row')).toHaveCount(1);
  await page.getByTestId('rules-search').fill(`${t}-nothing`);
  await expect(page.getByTestId('rules-empty')).toBeVisible();
  await page.getByTestId('rules-search').fill('');

  // the live popup takes the rule's colour and sound
  const dev = await createDevice(page.request, { name: `Popup ${t}`, uniqueId: `nr-${t}` });
  try {
    await sendOsmAnd(page.request, { id: dev.uniqueId, lat: -23.5, lon: -46.6 });
    await page.goto('/home');
    await expect
      .poll(() => page.evaluate((id) => window.__rastroMap?.featureIds().includes(id), dev.id))
      .toBe(true);
    await sendOsmAnd(page.request, { id: dev.uniqueId, lat: -23.5, lon: -46.6, alarm });
    const card = page.getByTestId('notification-card').filter({ hasText: dev.name }).first();
    await expect(card).toBeVisible();
    await expect(card).toHaveAttribute('data-color', 'red');
    await expect(card).toHaveAttribute('data-sound', /\/rastro\/assets\/custom\/sounds\/audio5\.wav$/);
  } finally {
    await page.request.delete(`/api/devices/${dev.id}`);
  }

  // edit: the form shows the saved values; the test button sends a web test
  await page.goto('/notifications');
  await page.getByTestId('rule-row').filter({ hasText: name }).getByTestId('rule-edit').click();
  await expect(page.getByTestId('rule-color')).toHaveValue('Vermelho');
  await expect(page.getByTestId('rule-sound')).toHaveValue('Som 5');
  const testCall = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/notifications/test/web',
  );
  await page.getByTestId('rule-test').click();
  expect((await testCall).postDataJSON()).toEqual({ type: 'alarm', notificators: 'web' });
  await expect(page.getByTestId('rule-test-result')).toHaveText(
    'Notificação de teste enviada pelo canal web',
  );
  await page.getByTestId('rule-description').fill(`${name} b`);
  await pick(page, 'rule-position', 'Superior esquerda');
  await page.getByTestId('rule-pin').click();
  await page.getByTestId('rule-save').click();
  await expect(page.getByText('Regra salva')).toBeVisible();
  await expect(page.getByTestId('rule-row').filter({ hasText: `${name} b` })).toBeVisible();
  expect(await findRule(page.request, `${name} b`)).toMatchObject({
    id: rule!.id,
    attributes: { 'rastro.position': 'top-left', 'rastro.pin': true, 'rastro.color': 'red' },
  });

  // delete (confirmed)
  await page
    .getByTestId('rule-row')
    .filter({ hasText: `${name} b` })
    .getByTestId('rule-delete')
    .click();
  await expect(page.getByTestId('rule-delete-confirm')).toContainText(`${name} b`);
  await page.getByTestId('rule-delete-yes').click();
  await expect(page.getByText('Regra excluída')).toBeVisible();
  await expect(page.getByTestId('rule-row').filter({ hasText: name })).toHaveCount(0);
  expect(await findRule(page.request, `${name} b`)).toBeUndefined();
});

test('the events dialog links a rule to the chosen devices and a calendar', async ({ page, loginAs }) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const name = `Evento ${t}`;
  const a = await createDevice(page.request, { name: `EvA ${t}`, uniqueId: `eva-${t}` });
  const b = await createDevice(page.request, { name: `EvB ${t}`, uniqueId: `evb-${t}` });
  const calRes = await page.request.post('/api/calendars', { data: { id: 0, name: `Cal ${t}`, data: ICS } });
  expect(calRes.ok()).toBe(true);
  const cal = (await calRes.json()) as { id: number };
  let ruleId = 0;
  try {
    await page.goto('/home');
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-events').click();
    const dialog = page.getByTestId('events-dialog');
    await expect(dialog.getByTestId('rules-events')).toBeVisible();
    await dialog.getByTestId('rule-add').click();
    const form = page.getByTestId('rule-form');
    await page.getByTestId('rule-save').click();
    await expect(form.getByText('Selecione um tipo')).toBeVisible();
    await expect(form.getByText('Selecione pelo menos um dispositivo')).toBeVisible();
    await expect(form.getByText('Selecione um calendário')).toBeVisible();

    await pick(page, 'rule-type', 'Ignição ligada');
    await page.getByTestId('rule-description').fill(name);
    await page.getByTestId('rule-devices').fill(`EvA ${t}`);
    await page.getByRole('option', { name: `EvA ${t}`, exact: true }).click();
    await page.getByTestId('rule-description').click();
    await pick(page, 'rule-calendar', `Cal ${t}`);
    await page.getByTestId('rule-save').click();
    await expect(page.getByText('Regra salva')).toBeVisible();
    await expect(dialog.getByTestId('rule-row').filter({ hasText: name })).toContainText(`Cal ${t}`);

    const linked = await findRule(page.request, name, `?deviceId=${a.id}`);
    expect(linked).toMatchObject({
      type: 'ignitionOn',
      always: false,
      calendarId: cal.id,
      notificators: 'web',
    });
    ruleId = linked!.id;
    expect(await findRule(page.request, name, `?deviceId=${b.id}`)).toBeUndefined();

    // edit: move the rule from device A to device B (A unlinked, B linked)
    await dialog.getByTestId('rule-row').filter({ hasText: name }).getByTestId('rule-edit').click();
    await expect(form.getByText(`EvA ${t}`)).toBeVisible();
    await page.getByTestId('rule-devices').click();
    await page.getByTestId('rule-devices').press('Backspace');
    await page.getByTestId('rule-devices').fill(`EvB ${t}`);
    await page.getByRole('option', { name: `EvB ${t}`, exact: true }).click();
    await page.getByTestId('rule-description').click();
    await page.getByTestId('rule-save').click();
    await expect(page.getByText('Regra salva').first()).toBeVisible();
    // the first save's toast may still be the one seen: wait for both links to settle
    await expect.poll(async () => (await findRule(page.request, name, `?deviceId=${b.id}`))?.id).toBe(ruleId);
    await expect.poll(async () => await findRule(page.request, name, `?deviceId=${a.id}`)).toBeUndefined();
    await expect(form).toBeHidden(); // closed only once the links were saved
  } finally {
    if (ruleId) await page.request.delete(`/api/notifications/${ruleId}`);
    else {
      const left = await findRule(page.request, name);
      if (left) await page.request.delete(`/api/notifications/${left.id}`);
    }
    await page.request.delete(`/api/devices/${a.id}`);
    await page.request.delete(`/api/devices/${b.id}`);
    await page.request.delete(`/api/calendars/${cal.id}`);
  }
});

test('the notifications dialog shows the same manager; a read-only user cannot create', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  await page.goto('/home');
  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('user-menu-notifications').click();
  const dialog = page.getByTestId('notifications-dialog');
  await expect(dialog.getByTestId('rules-notifications')).toBeVisible();
  await expect(dialog.getByTestId('rule-add')).toBeVisible();
  await page.context().clearCookies();

  await loginAs(accounts.readonly.email, accounts.readonly.password);
  await page.goto('/notifications');
  await expect(page.getByTestId('rules-readonly')).toBeVisible();
  await expect(page.getByTestId('rules-notifications')).toBeVisible();
  await expect(page.getByTestId('rule-add')).toHaveCount(0);
  await expect(page.getByTestId('rule-edit')).toHaveCount(0);
  await expect(page.getByTestId('rule-delete')).toHaveCount(0);
});
