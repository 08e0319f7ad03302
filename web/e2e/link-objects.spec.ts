// The link-objects dialog (issue #11, SPEC §2 global dialogs; Traccar connections): from the device form, a geofence
// and a notification are linked and unlinked, each change written at once through /api/permissions; from /groups
// a group gets a saved command. A read-only user is refused by the server.
import { accounts, expect, test } from './fixtures.ts';
import { createDevice, tag } from './map-helpers.ts';

test('links a device to a geofence and a notification, unlinks, and links a group to a saved command', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const dev = await createDevice(page.request, { name: `Vínculo ${t}`, uniqueId: `link-${t}` });
  const geofences = (await (await page.request.get('/api/geofences')).json()) as Array<{
    id: number;
    name: string;
  }>;
  const g = geofences[0]!;
  await page.goto(`/devices/${dev.id}`);
  await page.getByTestId('action-edit').click();
  await page.getByTestId('device-link-objects').click();
  const dialog = page.getByTestId('link-objects-dialog');
  await expect(dialog.getByTestId(`link-geofence-${g.id}`)).not.toBeChecked();
  await dialog.getByTestId(`link-geofence-${g.id}`).click();
  await expect(dialog.getByTestId(`link-geofence-${g.id}`)).toBeChecked();
  const linked = async (path: string) =>
    ((await (await page.request.get(`${path}?deviceId=${dev.id}`)).json()) as Array<{ id: number }>).map(
      (o) => o.id,
    );
  expect(await linked('/api/geofences')).toContain(g.id);

  await dialog.getByTestId('link-tab-notification').click();
  const first = dialog.locator('[data-testid^="link-notification-"]').first();
  const nid = Number((await first.getAttribute('data-testid'))!.replace('link-notification-', ''));
  await first.click();
  await expect(first).toBeChecked();
  expect(await linked('/api/notifications')).toContain(nid);

  await dialog.getByTestId('link-tab-geofence').click();
  await dialog.getByTestId(`link-geofence-${g.id}`).click();
  await expect(dialog.getByTestId(`link-geofence-${g.id}`)).not.toBeChecked();
  expect(await linked('/api/geofences')).not.toContain(g.id);
  await page.keyboard.press('Escape');

  // a group and a saved command
  const groups = (await (await page.request.get('/api/groups')).json()) as Array<{
    id: number;
    name: string;
  }>;
  const commands = (await (await page.request.get('/api/commands')).json()) as Array<{ id: number }>;
  await page.goto('/groups');
  await page
    .locator(`[data-testid="group-row"][data-group-id="${groups[0]!.id}"]`)
    .getByTestId('group-link-objects')
    .click();
  const gd = page.getByTestId('link-objects-dialog');
  await gd.getByTestId('link-tab-command').click();
  await gd.getByTestId(`link-command-${commands[0]!.id}`).click();
  await expect(gd.getByTestId(`link-command-${commands[0]!.id}`)).toBeChecked();
  const groupCommands = (await (
    await page.request.get(`/api/commands?groupId=${groups[0]!.id}`)
  ).json()) as Array<{
    id: number;
  }>;
  expect(groupCommands.map((c) => c.id)).toContain(commands[0]!.id);
  // leave the demo as it was
  await gd.getByTestId(`link-command-${commands[0]!.id}`).click();
  await expect(gd.getByTestId(`link-command-${commands[0]!.id}`)).not.toBeChecked();
});

test('a read-only user cannot link objects: the server refuses', async ({ page, loginAs }) => {
  await loginAs(accounts.readonly.email, accounts.readonly.password);
  const devices = (await (await page.request.get('/api/devices')).json()) as Array<{ id: number }>;
  const geofences = (await (await page.request.get('/api/geofences')).json()) as Array<{ id: number }>;
  const res = await page.request.post('/api/permissions', {
    data: { deviceId: devices[0]!.id, geofenceId: geofences[0]?.id ?? 1 },
  });
  expect(res.status()).toBe(400);
});
