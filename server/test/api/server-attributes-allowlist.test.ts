// Server attributes by allow-list (issue #27): what GET /api/server shows an anonymous caller (the login page)
// and a signed-in non-administrator is listed in packages/domain serverSecrets.ts; everything else, whatever its
// name, reaches administrators only. Before, secrets were guessed from a name suffix, so `{ns}.secretWord` went out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_ONLY_SERVER_SETTINGS,
  SERVER_FLAG_ATTRIBUTES,
  SERVER_TEXT_ATTRIBUTES,
  serverAttributeAudience,
  visibleServerAttributes,
} from '@rastro/domain';
import { api, createUser, expectStatus, makeTestApp, type TestApp } from '../helpers/index.ts';

type ServerJson = { attributes: Record<string, unknown>; bingKey: string | null } & Record<string, unknown>;

describe('server attributes by allow-list', () => {
  let t: TestApp;
  let ns: string;
  beforeAll(async () => {
    t = await makeTestApp();
    ns = t.ctx.config.ns;
    const server = expectStatus<ServerJson>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
    expectStatus(
      await api(t.app, t.admin, 'PUT', '/api/server', {
        ...server,
        attributes: {
          ...server.attributes,
          // unknown names: hidden from everyone but administrators, whatever they look like
          [`${ns}.secretWord`]: 'open-sesame',
          'acme.pin': '9876',
          webhookUrl: 'https://hooks.example.com/T0k3n',
          'mail.smtp.host': 'smtp.example.com',
          // what the login page needs (Rastro and Traccar's web app)
          [`${ns}.lang`]: 'es',
          [`${ns}.logoWidth`]: 40,
          currency: 'BRL',
          title: 'Frota',
          colorPrimary: '#123456',
          totpEnable: true,
          // what a signed-in user's pages need
          [`${ns}.enableAdvancedPerms`]: true,
          [`${ns}.showStops`]: true,
          [`${ns}.deviceAttributes`]: 'fuel,battery',
          [`${ns}.blockMaxSpeed`]: 15,
          [`${ns}.googleKey`]: 'google-browser-key',
          mapTilerKey: 'maptiler-browser-key',
          mapboxAccessToken: 'pk.mapbox-browser-token',
          'ui.disableDrivers': true,
          speedUnit: 'kmh',
          // settings for administrators only
          [`${ns}.smsApiKey`]: 'sms-secret-123',
          [`${ns}.smsApiType`]: 'post',
        },
      }),
      200,
    );
  });
  afterAll(() => t.close());

  const unknownValues = ['open-sesame', '9876', 'hooks.example.com', 'smtp.example.com'];

  it('finding: {ns}.secretWord and other unknown attributes never reach an anonymous caller', async () => {
    const anon = expectStatus<ServerJson>(await api(t.app, null, 'GET', '/api/server'), 200);
    const text = JSON.stringify(anon);
    for (const v of [...unknownValues, 'sms-secret-123', 'google-browser-key', 'maptiler-browser-key'])
      expect(text).not.toContain(v);
    expect(anon.attributes).toEqual({
      [`${ns}.lang`]: 'es',
      [`${ns}.logoWidth`]: 40,
      currency: 'BRL',
      title: 'Frota',
      colorPrimary: '#123456',
      totpEnable: true,
      speedUnit: 'kmh',
    });
  });

  it('finding: nor a signed-in non-administrator, who still gets every setting and map key its pages read', async () => {
    const u = await createUser(t);
    const mine = expectStatus<ServerJson>(await api(t.app, u.cookie, 'GET', '/api/server'), 200);
    const text = JSON.stringify(mine);
    for (const v of [...unknownValues, 'sms-secret-123']) expect(text).not.toContain(v);
    expect(mine.attributes[`${ns}.smsApiType`]).toBeUndefined();
    expect(mine.attributes).toMatchObject({
      [`${ns}.lang`]: 'es',
      currency: 'BRL',
      [`${ns}.enableAdvancedPerms`]: true,
      [`${ns}.showStops`]: true,
      [`${ns}.deviceAttributes`]: 'fuel,battery',
      [`${ns}.blockMaxSpeed`]: 15,
      [`${ns}.googleKey`]: 'google-browser-key',
      mapTilerKey: 'maptiler-browser-key',
      mapboxAccessToken: 'pk.mapbox-browser-token',
      'ui.disableDrivers': true,
      speedUnit: 'kmh',
    });
  });

  it('an administrator reads every attribute', async () => {
    const all = expectStatus<ServerJson>(await api(t.app, t.admin, 'GET', '/api/server'), 200);
    expect(all.attributes).toMatchObject({
      [`${ns}.secretWord`]: 'open-sesame',
      'acme.pin': '9876',
      [`${ns}.smsApiKey`]: 'sms-secret-123',
      [`${ns}.smsApiType`]: 'post',
    });
  });

  it('every setting of the Server settings dialog has a decided audience', () => {
    const adminOnly = new Set<string>(ADMIN_ONLY_SERVER_SETTINGS);
    for (const [field, d] of Object.entries({ ...SERVER_FLAG_ATTRIBUTES, ...SERVER_TEXT_ATTRIBUTES })) {
      const name = d.plain ? d.key : `rastro.${d.key}`;
      const audience = serverAttributeAudience(name, 'rastro');
      if (adminOnly.has(field)) expect(audience, field).toBe('admin');
      else expect(audience, field).not.toBe('admin');
    }
  });

  it('the rule itself: listed names by audience, any other name to administrators only, any namespace', () => {
    const attrs = {
      'fleet.secretWord': 'x',
      'fleet.lang': 'pt-BR',
      'fleet.googleKey': 'g',
      'rastro.lang': 'en',
    };
    expect(visibleServerAttributes(attrs, 'anonymous', 'fleet')).toEqual({ 'fleet.lang': 'pt-BR' });
    expect(visibleServerAttributes(attrs, 'user', 'fleet')).toEqual({
      'fleet.lang': 'pt-BR',
      'fleet.googleKey': 'g',
    });
    expect(visibleServerAttributes(attrs, 'admin', 'fleet')).toEqual(attrs);
    expect(serverAttributeAudience('fleet.secretWord', 'fleet')).toBe('admin');
    expect(serverAttributeAudience('speedUnit', 'fleet')).toBe('anonymous');
    expect(serverAttributeAudience('hereKey', 'fleet')).toBe('user');
  });
});
