// Catalogs: the /groups screen (tree by parent, parent choices without itself and its subgroups) and the drivers,
// calendars and maintenances dialogs of the user menu, each created, edited and deleted through the UI and checked
// against the Traccar API; a read-only user sees no create buttons. Names carry a unique tag; everything created
// is deleted.
import type { APIRequestContext, Page } from '@playwright/test';
import { accounts, expect, test } from './fixtures.ts';
import { tag } from './map-helpers.ts';

async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function openMenuDialog(page: Page, entry: string) {
  await page.getByTestId('user-menu-button').click();
  await page.getByTestId(`user-menu-${entry}`).click();
}

async function list<T>(request: APIRequestContext, path: string): Promise<T[]> {
  const res = await request.get(path);
  expect(res.status()).toBe(200);
  return (await res.json()) as T[];
}

interface ApiGroup {
  id: number;
  name: string;
  groupId: number;
  attributes: Record<string, unknown>;
}

test('groups: a child under a parent, parent choices exclude itself and its subgroups, edit and delete', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const created: number[] = [];
  try {
    await page.goto('/groups');
    await page.getByTestId('group-add').click();
    await page.getByTestId('group-save').click();
    await expect(page.getByText('O campo nome é obrigatório')).toBeVisible();
    await page.getByTestId('group-name-input').fill(`Pai ${t}`);
    await page.getByTestId('group-save').click();
    await expect(page.getByText('Grupo salvo')).toBeVisible();
    await expect(page.getByTestId('group-form')).toHaveCount(0);

    await page.getByTestId('group-add').click();
    await page.getByTestId('group-name-input').fill(`Filho ${t}`);
    await pick(page, 'group-parent', `Pai ${t}`);
    await page.getByTestId('attribute-add').click();
    await page.getByTestId('attribute-key').fill('speedLimit');
    await page.getByTestId('attribute-value').fill('80');
    await page.getByTestId('group-save').click();
    await expect(page.getByTestId('group-form')).toHaveCount(0);

    const groups = await list<ApiGroup>(page.request, '/api/groups');
    const parent = groups.find((g) => g.name === `Pai ${t}`)!;
    const child = groups.find((g) => g.name === `Filho ${t}`)!;
    created.push(child.id, parent.id);
    expect(parent.groupId).toBe(0);
    expect(child).toMatchObject({ groupId: parent.id, attributes: { speedLimit: 80 } });

    // the tree shows the child one level under its parent; search keeps the parent for context
    const childRow = page.getByTestId('group-row').filter({ hasText: `Filho ${t}` });
    await expect(childRow).toHaveAttribute('data-depth', '1');
    await page.getByTestId('groups-search').fill(`filho ${t}`);
    await expect(page.getByTestId('group-row')).toHaveCount(2);
    await page.getByTestId('groups-search').fill('');

    // editing the parent: neither itself nor its child may become its parent
    await page
      .getByTestId('group-row')
      .filter({ hasText: `Pai ${t}` })
      .getByTestId('group-edit')
      .click();
    await page.getByTestId('group-parent').click();
    await expect(page.getByRole('option', { name: `Filho ${t}` })).toHaveCount(0);
    await expect(page.getByRole('option', { name: `Pai ${t}`, exact: true })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Cancelar' }).click();

    // edit the child: rename, keep parent and attribute
    await childRow.getByTestId('group-edit').click();
    await expect(page.getByTestId('attribute-value')).toHaveValue('80');
    await page.getByTestId('group-name-input').fill(`Filho ${t} B`);
    await page.getByTestId('group-save').click();
    await expect(page.getByTestId('group-row').filter({ hasText: `Filho ${t} B` })).toBeVisible();
    const renamed = (await list<ApiGroup>(page.request, '/api/groups')).find((g) => g.id === child.id)!;
    expect(renamed).toMatchObject({ name: `Filho ${t} B`, groupId: parent.id });

    // delete the child, then the parent
    for (const name of [`Filho ${t} B`, `Pai ${t}`]) {
      await page.getByTestId('group-row').filter({ hasText: name }).getByTestId('group-delete').click();
      await expect(page.getByTestId('group-delete-confirm')).toContainText(name);
      await page.getByTestId('group-delete-yes').click();
      await expect(page.getByTestId('group-row').filter({ hasText: name })).toHaveCount(0);
    }
    const left = await list<ApiGroup>(page.request, '/api/groups');
    expect(left.some((g) => g.id === child.id || g.id === parent.id)).toBe(false);
  } finally {
    for (const id of created) await page.request.delete(`/api/groups/${id}`);
  }
});

interface ApiDriver {
  id: number;
  name: string;
  uniqueId: string;
  attributes: Record<string, unknown>;
}

test('drivers dialog: required fields, a duplicate identifier, edit and delete', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  try {
    await page.goto('/home');
    await openMenuDialog(page, 'drivers');
    await expect(page.getByRole('dialog', { name: 'Motoristas' })).toBeVisible();
    await page.getByTestId('driver-add').click();
    await page.getByTestId('driver-save').click();
    await expect(page.getByText('O campo nome é obrigatório')).toBeVisible();
    await expect(page.getByText('Informe o identificador do motorista')).toBeVisible();
    await page.getByTestId('driver-name').fill(`Ana ${t}`);
    await page.getByTestId('driver-uniqueId').fill(`rfid-${t}`);
    await page.getByTestId('driver-licenseNumber').fill('01234567890');
    await page.getByTestId('driver-licenseCategory').fill('AE');
    await page.getByTestId('driver-cpf').fill('111.111.111-11');
    await page.getByTestId('driver-save').click();
    await expect(page.getByText('CPF inválido')).toBeVisible();
    await page.getByTestId('driver-cpf').fill('529.982.247-25');
    await page.getByTestId('driver-save').click();
    await expect(page.getByText('Motorista salvo')).toBeVisible();
    const row = page.getByTestId('driver-row').filter({ hasText: `Ana ${t}` });
    await expect(row).toContainText(`rfid-${t}`);
    const saved = (await list<ApiDriver>(page.request, '/api/drivers')).find(
      (d) => d.uniqueId === `rfid-${t}`,
    );
    expect(saved).toMatchObject({
      name: `Ana ${t}`,
      attributes: { licenseNumber: '01234567890', licenseCategory: 'AE', cpf: '52998224725' },
    });

    // a second driver with the same identifier: the server's 400 is shown translated
    await page.getByTestId('driver-add').click();
    await page.getByTestId('driver-name').fill(`Outro ${t}`);
    await page.getByTestId('driver-uniqueId').fill(`rfid-${t}`);
    await page.getByTestId('driver-save').click();
    await expect(
      page.getByTestId('driver-form').getByText('Já existe um motorista com este identificador'),
    ).toBeVisible();
    await page.getByTestId('driver-cancel').click();

    await row.getByTestId('driver-edit').click();
    await expect(page.getByTestId('driver-licenseNumber')).toHaveValue('01234567890');
    // the driver's photo: a wrong type is refused before upload, a PNG is saved and shown
    const photo = page.getByTestId('driver-photo');
    const input = photo.locator('input[type=file]');
    await input.setInputFiles({ name: 'nota.txt', mimeType: 'text/plain', buffer: Buffer.from('oi') });
    await expect(photo.getByTestId('driver-photo-error')).toHaveText(
      'Escolha uma imagem JPEG, PNG, GIF ou WebP',
    );
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    await input.setInputFiles({ name: 'ana.png', mimeType: 'image/png', buffer: png });
    await expect(page.getByText('Foto salva')).toBeVisible();
    await expect(photo.getByRole('img', { name: `Foto de Ana ${t}` })).toHaveAttribute(
      'src',
      new RegExp(`/rastro/assets/images/drivers/${saved!.id}\\.png\\?v=\\d+$`),
    );
    await page.getByTestId('driver-name').fill(`Ana ${t} Souza`);
    await page.getByTestId('driver-save').click();
    await expect(page.getByTestId('driver-row').filter({ hasText: `Ana ${t} Souza` })).toBeVisible();
    const edited = (await list<ApiDriver>(page.request, '/api/drivers')).find((d) => d.id === saved!.id);
    expect(edited).toMatchObject({ name: `Ana ${t} Souza`, attributes: { licenseCategory: 'AE' } });

    await page
      .getByTestId('driver-row')
      .filter({ hasText: `Ana ${t} Souza` })
      .getByTestId('driver-delete')
      .click();
    await page.getByTestId('driver-delete-yes').click();
    await expect(page.getByText('Motorista excluído')).toBeVisible();
    await expect(page.getByTestId('driver-row').filter({ hasText: `Ana ${t}` })).toHaveCount(0);
  } finally {
    const left = await list<ApiDriver>(page.request, '/api/drivers');
    for (const d of left.filter((x) => x.uniqueId === `rfid-${t}`))
      await page.request.delete(`/api/drivers/${d.id}`);
  }
});

interface ApiCalendar {
  id: number;
  name: string;
  data: string;
}
const icsOf = (c: ApiCalendar) => Buffer.from(c.data, 'base64').toString('utf8');

test('calendars dialog: a weekly schedule becomes RRULE FREQ=WEEKLY, edit adds COUNT, delete', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  try {
    await page.goto('/home');
    await openMenuDialog(page, 'calendars');
    await page.getByTestId('calendar-add').click();
    await page.getByTestId('calendar-name').fill(`Expediente ${t}`);
    // 2026-11-23 is a Monday
    await page.getByTestId('schedule-start').fill('23/11/2026 08:00');
    await page.getByTestId('schedule-end').fill('23/11/2026 18:00');
    await page.getByTestId('schedule-end').press('Tab');
    await expect(page.getByTestId('schedule-preview')).toContainText('toda segunda das 08:00 às 18:00');
    await page.getByTestId('calendar-save').click();
    await expect(page.getByText('Calendário salvo')).toBeVisible();
    const row = page.getByTestId('calendar-row').filter({ hasText: `Expediente ${t}` });
    await expect(row).toContainText('toda segunda das 08:00 às 18:00');
    const saved = (await list<ApiCalendar>(page.request, '/api/calendars')).find(
      (c) => c.name === `Expediente ${t}`,
    )!;
    const ics = icsOf(saved);
    expect(ics).toContain('RRULE:FREQ=WEEKLY');
    expect(ics).toMatch(/DTSTART(;TZID=[^:]+)?:20261123T080000/);

    await row.getByTestId('calendar-edit').click();
    await expect(page.getByTestId('schedule-start')).toHaveValue('23/11/2026 08:00');
    await pick(page, 'schedule-expiry', 'Após um número de vezes');
    await page.getByTestId('schedule-count').fill('5');
    await expect(page.getByTestId('schedule-preview')).toContainText('5 vezes');
    await page.getByTestId('calendar-save').click();
    await expect(page.getByTestId('calendar-form')).toHaveCount(0);
    const edited = (await list<ApiCalendar>(page.request, '/api/calendars')).find((c) => c.id === saved.id)!;
    expect(icsOf(edited)).toMatch(/RRULE:FREQ=WEEKLY;COUNT=5/);

    await page
      .getByTestId('calendar-row')
      .filter({ hasText: `Expediente ${t}` })
      .getByTestId('calendar-delete')
      .click();
    await page.getByTestId('calendar-delete-yes').click();
    await expect(page.getByText('Calendário excluído')).toBeVisible();
    expect((await list<ApiCalendar>(page.request, '/api/calendars')).some((c) => c.id === saved.id)).toBe(
      false,
    );
  } finally {
    const left = await list<ApiCalendar>(page.request, '/api/calendars');
    for (const c of left.filter((x) => x.name === `Expediente ${t}`))
      await page.request.delete(`/api/calendars/${c.id}`);
  }
});

interface ApiMaintenance {
  id: number;
  name: string;
  type: string;
  start: number;
  period: number;
}

test('maintenances dialog: 10,000 km is stored as 10,000,000 m; 500 h as 1,800,000,000 ms; delete', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  try {
    await page.goto('/home');
    await openMenuDialog(page, 'maintenance');
    await page.getByTestId('maintenance-add').click();
    await page.getByTestId('maintenance-save').click();
    await expect(page.getByText('O campo nome é obrigatório')).toBeVisible();
    await expect(page.getByText('Informe um ciclo maior que zero')).toBeVisible();
    await page.getByTestId('maintenance-name').fill(`Óleo ${t}`);
    await page.getByTestId('maintenance-period').fill('10000');
    await expect(page.getByTestId('maintenance-next')).toHaveText('Próxima em 10.000 km');
    await page.getByTestId('maintenance-save').click();
    await expect(page.getByText('Manutenção salva')).toBeVisible();
    const row = page.getByTestId('maintenance-row').filter({ hasText: `Óleo ${t}` });
    await expect(row.getByTestId('maintenance-period-cell')).toHaveText('10.000 km');
    const saved = (await list<ApiMaintenance>(page.request, '/api/maintenance')).find(
      (m) => m.name === `Óleo ${t}`,
    )!;
    expect(saved).toMatchObject({ type: 'totalDistance', start: 0, period: 10_000_000 });

    await row.getByTestId('maintenance-edit').click();
    await expect(page.getByTestId('maintenance-period')).toHaveValue('10.000');
    await pick(page, 'maintenance-type', 'Horas de motor');
    await page.getByTestId('maintenance-period').fill('500');
    await page.getByTestId('maintenance-save').click();
    await expect(row.getByTestId('maintenance-period-cell')).toHaveText('500 h');
    const edited = (await list<ApiMaintenance>(page.request, '/api/maintenance')).find(
      (m) => m.id === saved.id,
    )!;
    expect(edited).toMatchObject({ type: 'hours', period: 1_800_000_000 });

    await row.getByTestId('maintenance-delete').click();
    await page.getByTestId('maintenance-delete-yes').click();
    await expect(page.getByText('Manutenção excluída')).toBeVisible();
    expect(
      (await list<ApiMaintenance>(page.request, '/api/maintenance')).some((m) => m.id === saved.id),
    ).toBe(false);
  } finally {
    const left = await list<ApiMaintenance>(page.request, '/api/maintenance');
    for (const m of left.filter((x) => x.name === `Óleo ${t}`))
      await page.request.delete(`/api/maintenance/${m.id}`);
  }
});

test('a read-only user sees no create buttons in groups, drivers, calendars and maintenance', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.readonly.email, accounts.readonly.password);
  await page.goto('/groups');
  await expect(page.getByTestId('groups-page')).toBeVisible();
  await expect(page.getByTestId('group-add')).toHaveCount(0);
  for (const [entry, title, add] of [
    ['drivers', 'Motoristas', 'driver-add'],
    ['calendars', 'Calendários', 'calendar-add'],
    ['maintenance', 'Manutenções', 'maintenance-add'],
  ]) {
    await openMenuDialog(page, entry);
    await expect(page.getByRole('dialog', { name: title })).toBeVisible();
    // the list has loaded (its empty text or its table) before checking that nothing offers to create
    await expect(page.getByRole('dialog', { name: title }).locator('table, p').first()).toBeVisible();
    await expect(page.getByTestId(add)).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: title })).toHaveCount(0);
  }
});
