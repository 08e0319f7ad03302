// An embedded server on a temporary in-memory store for the fleet tests, with users made directly in the store.
import { randomUUID } from 'node:crypto';
import { buildApp } from '../../src/app.ts';
import { storeEnv } from '../helpers/store.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { hashPassword } from '../../src/traccar/passwordHash.ts';
import type { AppContext } from '../../src/context.ts';
import { insert } from '../support/testSql.ts';

export async function fleetApp(overrides: Partial<Config> = {}, env: NodeJS.ProcessEnv = {}) {
  const config = loadConfig(
    { LOG_LEVEL: 'silent', SIM_DEVICES: '0', ...(await storeEnv(`fleet-${randomUUID()}`)), ...env },
    { sqliteFile: ':memory:', ...overrides },
  );
  const built = await buildApp(config);
  await built.app.ready();
  return built;
}

export async function addUser(
  ctx: AppContext,
  email: string,
  password: string,
  extra: Partial<Record<'administrator' | 'readonly' | 'disableReports' | 'userLimit', number>> & {
    attributes?: object;
  } = {},
): Promise<number> {
  const { attributes, ...flags } = extra;
  const row = {
    name: email,
    email,
    hashedPassword: await hashPassword(password),
    attributes: JSON.stringify(attributes ?? {}),
    ...flags,
  };
  return await insert(ctx.store.sql, 'users', row);
}

export async function addDevice(
  ctx: AppContext,
  uniqueId: string,
  name: string,
  groupId = 0,
  attributes: object = {},
): Promise<number> {
  return await insert(ctx.store.sql, 'devices', {
    name,
    uniqueId,
    groupId,
    attributes: JSON.stringify(attributes),
  });
}

export async function addGroup(ctx: AppContext, name: string, parent = 0): Promise<number> {
  return await insert(ctx.store.sql, 'groups', { name, groupId: parent });
}

export async function link(
  ctx: AppContext,
  ownerType: string,
  ownerId: number,
  propertyType: string,
  propertyId: number,
) {
  await insert(ctx.store.sql, 'links', { ownerType, ownerId, propertyType, propertyId }, { ignore: true });
  ctx.bus.emit('permissions');
}

export const basic = (email: string, password: string) => ({
  authorization: 'Basic ' + Buffer.from(`${email}:${password}`).toString('base64'),
});
