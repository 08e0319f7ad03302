// Live device changes on another user's open page (issue #28): the manager's device list is open; the administrator
// renames one of its devices and links it a new one through the API; the manager's list shows both without a
// reload (the socket's devices update, server/src/live/deviceChanges.ts); then deletes one and unlinks the other:
// both leave the manager's list without a reload (the socket's removedDevices).
import { accounts, expect, loginAs, test, useOfflineMap } from './fixtures.ts';
import { createDevice, tag } from './map-helpers.ts';

test("an administrator renames a device: the manager's open list shows the new name without reload", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await loginAs(page, accounts.admin.email, accounts.admin.password);
  const t = tag();
  const users = (await (await page.request.get('/api/users')).json()) as Array<{ id: number; email: string }>;
  const manager = users.find((u) => u.email === accounts.manager.email)!;
  const van = await createDevice(page.request, { name: `Van ${t}`, uniqueId: `lv-${t}` });
  let truckId = 0;
  const context = await browser.newContext({ locale: 'pt-BR' });
  try {
    expect(
      (
        await page.request.post('/api/permissions', { data: { userId: manager.id, deviceId: van.id } })
      ).status(),
    ).toBe(204);
    const other = await context.newPage();
    await useOfflineMap(other);
    await loginAs(other, accounts.manager.email, accounts.manager.password);
    await other.goto('/devices');
    await other.getByTestId('device-search').fill(t);
    await expect(other.getByText(`Van ${t}`, { exact: true })).toBeVisible();
    let loads = 0;
    other.on('load', () => loads++);

    const current = (await (await page.request.get(`/api/devices/${van.id}`)).json()) as Record<
      string,
      unknown
    >;
    const renamed = await page.request.put(`/api/devices/${van.id}`, {
      data: { ...current, name: `Van renomeada ${t}` },
    });
    expect(renamed.status()).toBe(200);
    await expect(other.getByText(`Van renomeada ${t}`, { exact: true })).toBeVisible({ timeout: 5_000 });
    await expect(other.getByText(`Van ${t}`, { exact: true })).toHaveCount(0);

    const truck = await createDevice(page.request, { name: `Caminhão ${t}`, uniqueId: `lc-${t}` });
    truckId = truck.id;
    await page.request.post('/api/permissions', { data: { userId: manager.id, deviceId: truck.id } });
    await expect(other.getByText(`Caminhão ${t}`, { exact: true })).toBeVisible({ timeout: 5_000 });

    expect((await page.request.delete(`/api/devices/${truck.id}`)).status()).toBe(204);
    truckId = 0;
    await expect(other.getByText(`Caminhão ${t}`, { exact: true })).toHaveCount(0, { timeout: 5_000 });
    const unlinked = await page.request.delete('/api/permissions', {
      data: { userId: manager.id, deviceId: van.id },
    });
    expect(unlinked.status()).toBe(204);
    await expect(other.getByText(`Van renomeada ${t}`, { exact: true })).toHaveCount(0, { timeout: 5_000 });
    expect(loads).toBe(0);
  } finally {
    await context.close();
    await page.request.delete(`/api/devices/${van.id}`);
    if (truckId) await page.request.delete(`/api/devices/${truckId}`);
  }
});
