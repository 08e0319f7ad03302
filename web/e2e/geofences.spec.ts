// The /geofence screen (session 3): draw a circle and a polygon with the mouse on the (offline) map, fill the form,
// save, see them listed with their size, rename, delete; Escape cancels a drawing; a line drawn with taps on a
// phone; a readonly user only looks. Every fence is tagged and removed afterwards.
import type { APIRequestContext, Page } from '@playwright/test';
import { accounts, expect, loginAs, test } from './fixtures.ts';
import { tag } from './map-helpers.ts';

interface ApiGeofence {
  id: number;
  name: string;
  area: string;
  attributes: Record<string, unknown>;
}

const R = 6378137;
function haversine(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.atan2(Math.sqrt(h), Math.sqrt(1 - h));
}

async function geofences(request: APIRequestContext): Promise<ApiGeofence[]> {
  const res = await request.get('/api/geofences');
  expect(res.ok()).toBe(true);
  return (await res.json()) as ApiGeofence[];
}

async function removeTagged(request: APIRequestContext, t: string): Promise<void> {
  for (const g of await geofences(request))
    if (g.name.includes(t)) await request.delete(`/api/geofences/${g.id}`);
}

/**
 * Waits for the live map, its style and the app's layers on it, and returns the canvas box in page coordinates.
 * (Not `isStyleLoaded()`: that also needs every source idle, which a moving fleet's markers rarely leave it.)
 */
async function mapBox(page: Page) {
  await page.waitForFunction(() => !!window.__rastroMap?.map.getLayer('rastro-geofences-fill'));
  const box = await page.locator('[data-testid=map-view] canvas').first().boundingBox();
  if (!box) throw new Error('no map canvas');
  return box;
}

/** Map coordinates of page points (the camera stays put while drawing: route mode). */
const unproject = (page: Page, box: { x: number; y: number }, points: Array<[number, number]>) =>
  page.evaluate(
    ({ box, points }) =>
      points.map(([x, y]) => {
        const l = window.__rastroMap!.map.unproject([x - box.x, y - box.y]);
        return { lat: l.lat, lng: l.lng };
      }),
    { box, points },
  );

/** Ids of the fences drawn by the map's geofence layer (its GeoJSON source). */
const mapFenceIds = (page: Page) =>
  page.evaluate(async () => {
    const src = window.__rastroMap?.map.getSource('rastro-geofences') as
      { getData(): Promise<GeoJSON.FeatureCollection> } | undefined;
    const data = src ? await src.getData() : null;
    return (data?.features ?? []).map((f) => Number(f.properties?.id));
  });

const row = (page: Page, name: string) => page.getByTestId('geofence-row').filter({ hasText: name });

test('an admin draws a circle and a polygon, saves, renames and deletes them', async ({ page, loginAs }) => {
  test.setTimeout(120_000); // many steps on a shared 2-core machine with software WebGL
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  try {
    // an anchor is not listed here (the device anchor action manages it)
    const anchor = await page.request.post('/api/geofences', {
      data: {
        id: 0,
        name: `Anchor ${t}`,
        description: '',
        calendarId: 0,
        area: 'CIRCLE (-23.55 -46.63, 150)',
        attributes: { isAnchor: true, deviceId: 999999 },
      },
    });
    expect(anchor.ok()).toBe(true);

    await page.goto('/geofence');
    await expect(page.getByTestId('geofences-page')).toBeVisible();
    const box = await mapBox(page);

    // --- circle: centre, then radius, by mouse
    await page.getByTestId('geofence-add').click();
    await page.getByTestId('geofence-add-circle').click();
    await expect(page.getByTestId('geofences-page')).toBeHidden(); // the panel hides while drawing
    await expect(page.getByTestId('map-edit-finish')).toBeVisible();
    await expect(page.getByTestId('map-draw-hint')).toContainText('Clique no centro do círculo');
    const cx = Math.round(box.x + box.width * 0.55);
    const cy = Math.round(box.y + box.height * 0.5);
    const [centre, edge] = await unproject(page, box, [
      [cx, cy],
      [cx + 120, cy],
    ]);
    await page.mouse.click(cx, cy);
    await expect.poll(() => page.evaluate(() => window.__rastroDraw?.state()?.edit.step)).toBe(2);
    await page.mouse.move(cx + 60, cy);
    await page.mouse.click(cx + 120, cy);
    await expect.poll(() => page.evaluate(() => window.__rastroDraw?.state()?.edit.step)).toBe(3);
    await page.getByTestId('map-edit-finish').click();

    const form = page.getByTestId('geofence-name');
    await expect(form).toBeVisible();
    await page.getByTestId('geofence-save').click();
    await expect(page.getByText('o campo nome é obrigatório')).toBeVisible(); // SPEC §5
    await page.getByTestId('geofence-name').fill(`Círculo ${t}`);
    await page.getByTestId('geofence-speed-limit').fill('60');
    await page.getByTestId('geofence-lock-enter').check();
    await page.getByTestId('geofence-save').click();
    await expect(page.getByText('Cerca salva')).toBeVisible();
    await expect(form).toBeHidden();

    const circle = (await geofences(page.request)).find((g) => g.name === `Círculo ${t}`);
    expect(circle).toBeDefined();
    const m = /^CIRCLE \((\S+) (\S+), (\S+)\)$/.exec(circle!.area);
    expect(m, circle!.area).not.toBeNull();
    const [lat, lon, radius] = [Number(m![1]), Number(m![2]), Number(m![3])];
    expect(Math.abs(lat - centre.lat)).toBeLessThan(1e-5);
    expect(Math.abs(lon - centre.lng)).toBeLessThan(1e-5);
    expect(Math.abs(radius - haversine(centre, edge))).toBeLessThan(1);
    expect(circle!.attributes['rastro.lockOnEnter']).toBe(true);
    expect(Number(circle!.attributes.speedLimit)).toBeGreaterThan(0);

    // listed with its area in km² (2 decimals, pt-BR), and drawn by the map without a reload
    const km2 = ((Math.PI * radius * radius) / 1e6).toLocaleString('pt-BR', {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    await expect(row(page, `Círculo ${t}`).getByTestId('geofence-measure')).toHaveText(`${km2} km²`);
    await expect.poll(() => mapFenceIds(page)).toContain(circle!.id);
    await expect(page.getByTestId('geofence-row').filter({ hasText: `Anchor ${t}` })).toHaveCount(0);

    // --- edit: rename
    await row(page, `Círculo ${t}`).getByTestId('geofence-edit').click();
    await expect(page.getByTestId('geofence-name')).toHaveValue(`Círculo ${t}`);
    await expect(page.getByTestId('geofence-lock-enter')).toBeChecked();
    await page.getByTestId('geofence-name').fill(`Círculo ${t} B`);
    await page.getByTestId('geofence-save').click();
    await expect(row(page, `Círculo ${t} B`)).toBeVisible();
    const renamed = (await geofences(page.request)).find((g) => g.id === circle!.id);
    expect(renamed?.name).toBe(`Círculo ${t} B`);
    expect(renamed?.area).toBe(circle!.area);

    // --- polygon: 4 clicks + Concluir
    await page.getByTestId('geofence-add').click();
    await page.getByTestId('geofence-add-polygon').click();
    await expect(page.getByTestId('map-edit-finish')).toBeVisible();
    const px = Math.round(box.x + box.width * 0.35);
    const py = Math.round(box.y + box.height * 0.3);
    const corners: Array<[number, number]> = [
      [px, py],
      [px + 150, py],
      [px + 150, py + 110],
      [px, py + 110],
    ];
    const expected = await unproject(page, box, corners);
    for (const [x, y] of corners) {
      await page.mouse.click(x, y);
      // a pause longer than a double-click, so each click is its own vertex
      await page.waitForTimeout(350);
    }
    await expect.poll(() => page.evaluate(() => window.__rastroDraw?.state()?.points.length)).toBe(4);
    await page.getByTestId('map-edit-finish').click();
    await expect(form).toBeVisible();
    await page.getByTestId('geofence-name').fill(`Polígono ${t}`);
    await page.getByTestId('geofence-save').click();
    await expect(row(page, `Polígono ${t}`)).toBeVisible();
    const polygon = (await geofences(page.request)).find((g) => g.name === `Polígono ${t}`);
    const pm = /^POLYGON \(\((.*)\)\)$/.exec(polygon?.area ?? '');
    expect(pm, polygon?.area).not.toBeNull();
    const pts = pm![1].split(', ').map((p) => p.split(' ').map(Number));
    expect(pts).toHaveLength(5);
    expect(pts[4]).toEqual(pts[0]);
    pts.slice(0, 4).forEach(([la, lo], i) => {
      expect(Math.abs(la - expected[i].lat)).toBeLessThan(1e-5);
      expect(Math.abs(lo - expected[i].lng)).toBeLessThan(1e-5);
    });
    await expect(row(page, `Polígono ${t}`).getByTestId('geofence-measure')).toContainText('km²');

    // --- search
    await page.getByTestId('geofence-search').fill(`polígono ${t}`);
    await expect(page.getByTestId('geofence-row')).toHaveCount(1);
    await page.getByTestId('geofence-search').fill('');

    // --- delete both, each after confirming
    for (const g of [renamed!, polygon!]) {
      await row(page, g.name).getByTestId('geofence-delete').click();
      await expect(page.getByTestId('geofence-delete-confirm')).toContainText(g.name);
      await page.getByTestId('geofence-delete-yes').click();
      await expect(row(page, g.name)).toHaveCount(0);
      expect((await page.request.get(`/api/geofences/${g.id}`)).ok()).toBe(false);
    }
    await expect.poll(() => mapFenceIds(page)).not.toContain(circle!.id);
    expect(
      (await geofences(page.request)).filter((g) => g.name.includes(t) && !g.name.startsWith('Anchor')),
    ).toEqual([]);
  } finally {
    await removeTagged(page.request, t);
  }
});

test('Escape and Cancelar discard a drawing; edit shape moves back to the form', async ({
  page,
  loginAs,
}) => {
  test.setTimeout(120_000);
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  try {
    const made = await page.request.post('/api/geofences', {
      data: {
        id: 0,
        name: `Forma ${t}`,
        description: '',
        calendarId: 0,
        area: 'CIRCLE (-23.55 -46.63, 300)',
        attributes: {},
      },
    });
    const fence = (await made.json()) as ApiGeofence;
    await page.goto('/geofence');
    const box = await mapBox(page);

    await page.getByTestId('geofence-add').click();
    await page.getByTestId('geofence-add-circle').click();
    await page.mouse.click(Math.round(box.x + box.width * 0.6), Math.round(box.y + box.height * 0.5));
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('map-edit-finish')).toBeHidden();
    await expect(page.getByTestId('geofences-page')).toBeVisible();
    await expect(page.getByTestId('geofence-name')).toHaveCount(0);
    expect(await page.evaluate(() => window.__rastroDraw?.state() ?? null)).toBeNull();
    await page.getByTestId('geofence-add').click();
    await page.getByTestId('geofence-add-polygon').click();
    await page.mouse.click(Math.round(box.x + box.width * 0.6), Math.round(box.y + box.height * 0.5));
    await page.getByTestId('map-edit-cancel').click();
    await expect(page.getByTestId('geofences-page')).toBeVisible();
    await expect(page.getByTestId('map-draw-hint')).toHaveCount(0);
    await expect(page.getByTestId('geofence-name')).toHaveCount(0);

    // edit shape: the existing circle is on the map in step 3; dragging its radius handle resizes it
    // clicking a fence fits the map to it: its whole circle is in view, right of the panel, and it fills the view
    await page.evaluate(() => window.__rastroMap!.map.jumpTo({ center: [10, 10], zoom: 3 }));
    await row(page, `Forma ${t}`).getByTestId('geofence-fit').click();
    await expect
      .poll(() =>
        page.evaluate(() => {
          const map = window.__rastroMap!.map;
          const c = map.project([-46.63, -23.55]);
          const e = map.project([
            -46.63 + (300 / (6378137 * Math.cos((23.55 * Math.PI) / 180))) * (180 / Math.PI),
            -23.55,
          ]);
          const w = map.getContainer().clientWidth;
          return c.x > 460 && c.x < w && e.x - c.x > 60;
        }),
      )
      .toBe(true);
    await row(page, `Forma ${t}`).getByTestId('geofence-edit').click();
    await page.getByTestId('geofence-edit-shape').click();
    await expect(page.getByTestId('map-edit-finish')).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.__rastroDraw?.state()?.edit.step)).toBe(3);
    const handle = await page.evaluate(
      ({ box }) => {
        const map = window.__rastroMap!.map;
        const s = window.__rastroDraw!.state()!;
        // the radius handle is due east of the centre
        const dLon =
          (s.radius / (6378137 * Math.cos((s.center!.latitude * Math.PI) / 180))) * (180 / Math.PI);
        const p = map.project([s.center!.longitude + dLon, s.center!.latitude]);
        return { x: box.x + p.x, y: box.y + p.y };
      },
      { box },
    );
    await page.mouse.move(handle.x, handle.y);
    await page.mouse.down();
    await page.mouse.move(handle.x + 20, handle.y, { steps: 4 });
    await page.mouse.move(handle.x + 40, handle.y, { steps: 4 });
    await page.mouse.up();
    const grown = await page.evaluate(() => window.__rastroDraw!.state()!.radius);
    expect(grown).toBeGreaterThan(300);
    await page.getByTestId('map-edit-finish').click();
    await expect(page.getByTestId('geofence-name')).toBeVisible();
    await page.getByTestId('geofence-save').click();
    await expect(page.getByText('Cerca salva')).toBeVisible();
    const saved = (await geofences(page.request)).find((g) => g.id === fence.id);
    const r = Number(/, (\S+)\)$/.exec(saved!.area)![1]);
    expect(Math.abs(r - grown)).toBeLessThan(0.1);
    expect(saved!.area.startsWith('CIRCLE (-23.55 -46.63,')).toBe(true);
  } finally {
    await removeTagged(page.request, t);
  }
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('a line is drawn with taps and saved, told how by a touch hint', async ({ page, loginAs }) => {
    await loginAs(accounts.admin.email, accounts.admin.password);
    const t = tag();
    try {
      await page.goto('/geofence');
      const box = await mapBox(page);
      await page.getByTestId('geofence-add').click();
      await page.getByTestId('geofence-add-line').click();
      await expect(page.getByTestId('map-edit-finish')).toBeVisible();
      // a finger's hint: tap, and Cancel (no mouse to click, no Esc key)
      await expect(page.getByTestId('map-draw-hint')).toHaveText(
        'Toque nos pontos da linha e em Concluir para terminar. Cancelar desiste.',
      );
      const taps: Array<[number, number]> = [
        [Math.round(box.x + box.width * 0.3), Math.round(box.y + box.height * 0.45)],
        [Math.round(box.x + box.width * 0.7), Math.round(box.y + box.height * 0.6)],
      ];
      const expected = await unproject(page, box, taps);
      for (const [x, y] of taps) {
        await page.touchscreen.tap(x, y);
        await page.waitForTimeout(400);
      }
      await expect.poll(() => page.evaluate(() => window.__rastroDraw?.state()?.points.length)).toBe(2);
      await page.getByTestId('map-edit-finish').click();
      await page.getByTestId('geofence-name').fill(`Linha ${t}`);
      await page.getByTestId('geofence-save').click();
      await expect(page.getByText('Cerca salva')).toBeVisible();
      const line = (await geofences(page.request)).find((g) => g.name === `Linha ${t}`);
      const pts = /^LINESTRING \((.*)\)$/
        .exec(line!.area)![1]
        .split(', ')
        .map((p) => p.split(' ').map(Number));
      expect(pts).toHaveLength(2);
      pts.forEach(([la, lo], i) => {
        expect(Math.abs(la - expected[i].lat)).toBeLessThan(1e-5);
        expect(Math.abs(lo - expected[i].lng)).toBeLessThan(1e-5);
      });
    } finally {
      await removeTagged(page.request, t);
    }
  });
});

test('a readonly user sees the geofences but cannot create, edit or delete', async ({ page }) => {
  const admin = await loginAs(page, accounts.admin.email, accounts.admin.password);
  expect(admin.administrator).toBe(true);
  const t = tag();
  const made = await page.request.post('/api/geofences', {
    data: {
      id: 0,
      name: `Leitura ${t}`,
      description: '',
      calendarId: 0,
      area: 'CIRCLE (-23.55 -46.63, 200)',
      attributes: {},
    },
  });
  const fence = (await made.json()) as ApiGeofence;
  const users = (await (await page.request.get('/api/users')).json()) as Array<{ id: number; email: string }>;
  const reader = users.find((u) => u.email === accounts.readonly.email)!;
  expect(
    (
      await page.request.post('/api/permissions', { data: { userId: reader.id, geofenceId: fence.id } })
    ).status(),
  ).toBe(204);
  try {
    await loginAs(page, accounts.readonly.email, accounts.readonly.password);
    await page.goto('/geofence');
    await expect(row(page, `Leitura ${t}`)).toBeVisible();
    await expect(page.getByTestId('geofence-add')).toHaveCount(0);
    await expect(page.getByTestId('geofence-edit')).toHaveCount(0);
    await expect(page.getByTestId('geofence-delete')).toHaveCount(0);
  } finally {
    await loginAs(page, accounts.admin.email, accounts.admin.password);
    await page.request.delete(`/api/geofences/${fence.id}`);
  }
});
