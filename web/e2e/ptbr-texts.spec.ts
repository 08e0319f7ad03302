// Issue #29 in a real browser, in pt-BR: the demo administrator's device detail shows labels, units and Sim/Não
// (never Traccar's keys, true/false or a missing-text marker ⟦…⟧), the saved-command form names every command
// type, and MapLibre's controls speak Portuguese (no "Zoom in", "Toggle attribution", aria-label "Map", …).
import type { Page } from '@playwright/test';
import { accounts, expect, test } from './fixtures.ts';
import { createDevice, sendOsmAnd, tag } from './map-helpers.ts';

const RAW_KEYS = [
  'batteryLevel',
  'battery',
  'power',
  'totalDistance',
  'distance',
  'hours',
  'driverUniqueId',
  'ignition',
  'motion',
  'rssi',
  'sat',
  'rpm',
  'fuel',
  'charge',
];
const ENGLISH_MAP_LABELS = [
  'Zoom in',
  'Zoom out',
  'Drag to rotate map, click to reset north',
  'Toggle attribution',
  'Map',
  'Enter fullscreen',
  'Find my location',
];

async function noMissingText(page: Page) {
  expect(await page.locator('body').innerText()).not.toContain('⟦');
}

test('pt-BR: device detail, saved-command types and the map controls read in Portuguese', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const driver = await page.request.post('/api/drivers', {
    data: { id: 0, name: `Ana ${t}`, uniqueId: `drv-${t}`, attributes: {} },
  });
  expect(driver.ok()).toBe(true);
  const dev = await createDevice(page.request, { name: `Textos ${t}`, uniqueId: `txt-${t}` });
  await sendOsmAnd(page.request, {
    id: dev.uniqueId,
    lat: -23.55,
    lon: -46.63,
    batt: 87,
    charge: true,
    ignition: true,
    power: 12.4,
    rssi: 4,
    sat: 9,
    rpm: 1850,
    fuel: 40.25,
    driverUniqueId: `drv-${t}`,
  });

  // the device detail (the map is on the same page)
  await page.goto(`/devices/${dev.id}`);
  const attributes = page.getByTestId('detail-attributes');
  await expect(attributes).toContainText('Nível da bateria');
  await expect(attributes).toContainText(`Ana ${t}`);
  await expect(attributes).toContainText('87%');
  await expect(attributes).toContainText('12,40 V');
  await expect(attributes).toContainText('Sim');
  const detail = page.getByTestId('device-detail');
  const text = await detail.innerText();
  expect(text).not.toMatch(/\btrue\b|\bfalse\b/);
  expect(text).not.toContain('⟦');
  const known = page.getByTestId('detail-known');
  for (const key of RAW_KEYS) await expect(known.getByText(key, { exact: true }), key).toHaveCount(0);
  await noMissingText(page);

  // MapLibre's controls and the map's own label
  await expect(page.locator('.maplibregl-canvas')).toHaveAttribute('aria-label', 'Mapa');
  await expect(page.locator('.maplibregl-ctrl-zoom-in')).toHaveAttribute('title', 'Aproximar');
  for (const label of ENGLISH_MAP_LABELS) {
    await expect(page.locator(`[aria-label="${label}"]`), label).toHaveCount(0);
    await expect(page.locator(`[title="${label}"]`), label).toHaveCount(0);
  }

  // the saved-command form's type list
  await page.goto('/commands');
  await page.getByTestId('command-add').click();
  await page.getByTestId('command-type').click();
  const options = page.getByRole('option');
  await expect(options.first()).toBeVisible();
  const names = await options.allInnerTexts();
  expect(names.length).toBeGreaterThanOrEqual(46);
  expect(names.filter((n) => n.includes('⟦'))).toEqual([]);
  for (const shown of [
    'Alarme SOS',
    'Enviar USSD',
    'Definir número SOS',
    'Mensagem de voz',
    'Atualizar firmware',
  ])
    expect(names, shown).toContain(shown);
  await noMissingText(page);
});
