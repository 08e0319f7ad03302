// Shared links of the extension API in gateway mode (same routes and answers as shares.ts): the guests and their
// tokens live in the upstream Traccar; the links are remembered locally (the `shares` table of DATA_DIR) so they
// can be listed, extended and revoked.
//   create  upstream `POST /api/share/{device|group}` asked as the caller (Traccar checks it may share) ⇒ the token;
//           the guest `<caller email>:<uniqueId>` (or `:group:<id>`) is then found with TRACCAR_TOKEN.
//   extend  a new token for the same guest: with TRACCAR_TOKEN, impersonate the guest (`GET /api/session/{id}`),
//           `POST /api/session/token` with the new expiry, log that session out; the old token is revoked and the
//           guest's expirationTime follows its latest live link.
//   revoke  `POST /api/session/token/revoke` with TRACCAR_TOKEN; a guest with no live link left is deleted
//           upstream, which ends its sessions at once.
// Traccar keeps one guest per owner and device, so revoking the last of several links of one device also ends the
// others' sessions only when none is left (each link's own token is always revoked).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { mayWrite, shareCreateSchema, shareUpdateSchema, type ShareRecord, type User } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { edge, edgeValue, idParams } from '../edge.ts';
import { ApiError, unauthorized } from '../errors.ts';
import { upstreamServer } from '../authorize.ts';
import { upstreamOf } from '../gateway/upstream.ts';
import { credentials, upstreamUser } from '../gateway/identity.ts';
import { invalidInput } from '../invalid.ts';
import { refused } from '../refusal.ts';
import { shareExpiry, shareInvalid, toShareRecord, translateFor } from './shares.ts';
import {
  deleteShare,
  insertShare,
  latestShareExpiry,
  listShares,
  listedShare,
  replaceShareToken,
  shareGuestToken,
} from '../db/repos/shares.ts';

const TIMEOUT_MS = 15_000;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const unreachable = () => new ApiError(502, 'Traccar server unreachable', 'WebApplicationException');

interface Call {
  method?: string;
  headers: Record<string, string>;
  form?: Record<string, string>;
  json?: unknown;
}

async function upstream(ctx: AppContext, path: string, call: Call): Promise<Response> {
  const { origin, basePath } = upstreamOf(ctx.config.traccarUrl!);
  const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
  let body: string | undefined;
  if (call.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(call.form).toString();
  } else if (call.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.json);
  }
  try {
    return await fetch(`${origin}${basePath}${path}`, {
      method: call.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    ctx.log.warn({ err, path }, 'upstream share request failed');
    throw unreachable();
  }
}

/** An upstream refusal relayed with its status and first line (Traccar's own message). */
async function relay(res: Response): Promise<ApiError> {
  const text =
    (await res.text().catch(() => '')).split('\n')[0].slice(0, 300) || `Traccar answered ${res.status}`;
  return new ApiError(
    res.status >= 500 ? 502 : res.status,
    text.replace(/^\w+Exception: /, ''),
    'WebApplicationException',
  );
}

// the share bits (the table); bad bodies answer the field's message in the caller's language, as shares.ts
const createEdge = edge({ body: shareCreateSchema, need: 'table', invalid: shareInvalid });
const updateEdge = edge({
  params: idParams,
  body: shareUpdateSchema,
  need: 'table',
  invalid: shareInvalid,
});

export function registerGatewayShares(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.mode !== 'gateway') return;
  const ns = ctx.config.ns;
  const sql = ctx.store.sql;

  async function caller(req: FastifyRequest): Promise<{ user: User; creds: Record<string, string> }> {
    const user = await upstreamUser(ctx, req);
    const creds = credentials(req);
    if (!user || !creds) throw unauthorized();
    if (ctx.config.edition !== 'plus') throw refused(ctx, req, user, 'share.needsPlus');
    return { user, creds };
  }

  /** TRACCAR_TOKEN as a Bearer header, or a translated 400 saying it is missing. */
  function service(req: FastifyRequest, user: User): Record<string, string> {
    if (!ctx.config.traccarToken) throw invalidInput(ctx, req, user, 'share.gatewayNeedsToken');
    return { authorization: `Bearer ${ctx.config.traccarToken}` };
  }

  const listOne = async (id: number): Promise<ShareRecord | null> => {
    const row = await listedShare(sql, id);
    return row ? toShareRecord(row) : null;
  };

  async function visibleShare(req: FastifyRequest, user: User): Promise<ShareRecord> {
    const found = await listOne(edgeValue(idParams, req.params).id);
    if (!found || (!user.administrator && found.creatorId !== user.id))
      throw new ApiError(404, translateFor(ctx, req, user, 'share.notFound'), 'WebApplicationException');
    return found;
  }

  /** Traccar's rule: a read-only user — or any non-administrator on a read-only server — changes nothing. */
  async function checkWrite(user: User): Promise<void> {
    if (user.administrator) return;
    if (!mayWrite(user, await upstreamServer(ctx)))
      throw new ApiError(400, 'Write access denied', 'SecurityException');
  }

  /** The device or group as the caller sees it upstream (name, and the uniqueId that names the guest). */
  async function target(
    creds: Record<string, string>,
    kind: 'device' | 'group',
    id: number,
  ): Promise<{ name: string; guestSuffix: string }> {
    const res = await upstream(ctx, kind === 'device' ? `/api/devices?id=${id}` : '/api/groups', {
      headers: creds,
    });
    const list = res.ok ? ((await res.json().catch(() => null)) as unknown) : null;
    const found = Array.isArray(list)
      ? (list as Array<{ id?: unknown; name?: unknown; uniqueId?: unknown }>).find((x) => x?.id === id)
      : undefined;
    if (!found)
      throw new ApiError(400, `${kind === 'device' ? 'Device' : 'Group'} access denied`, 'SecurityException');
    return {
      name: String(found.name ?? ''),
      guestSuffix: kind === 'device' ? String(found.uniqueId ?? '') : `group:${id}`,
    };
  }

  async function findGuest(headers: Record<string, string>, email: string): Promise<number> {
    const res = await upstream(ctx, '/api/users', { headers });
    if (!res.ok) throw await relay(res);
    const users = (await res.json().catch(() => [])) as Array<{ id: number; email?: string }>;
    return users.find((u) => (u.email ?? '').toLowerCase() === email.toLowerCase())?.id ?? 0;
  }

  /** The guest's expirationTime = its latest live link's (as in embedded mode); none left ⇒ deleted upstream. */
  async function syncGuest(headers: Record<string, string>, guestId: number): Promise<void> {
    if (!guestId) return;
    const until = await latestShareExpiry(sql, guestId);
    if (!until || Date.parse(until) <= Date.now()) {
      const del = await upstream(ctx, `/api/users/${guestId}`, { method: 'DELETE', headers });
      if (!del.ok && del.status !== 404) throw await relay(del);
      return;
    }
    const got = await upstream(ctx, `/api/users/${guestId}`, { headers });
    if (!got.ok) throw await relay(got);
    const guest = (await got.json()) as Record<string, unknown>;
    const put = await upstream(ctx, `/api/users/${guestId}`, {
      method: 'PUT',
      headers,
      json: { ...guest, expirationTime: until, disabled: false },
    });
    if (!put.ok) throw await relay(put);
  }

  async function revokeToken(headers: Record<string, string>, token: string): Promise<void> {
    const res = await upstream(ctx, '/api/session/token/revoke', { headers, form: { token } });
    if (!res.ok && res.status !== 400) throw await relay(res); // 400 = already unknown upstream
  }

  /** A token for the guest until `until`: impersonate it with the service token, ask, log that session out. */
  async function guestToken(headers: Record<string, string>, guestId: number, until: Date): Promise<string> {
    const as = await upstream(ctx, `/api/session/${guestId}`, { headers });
    if (!as.ok) throw await relay(as);
    const cookie = as.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    if (!cookie)
      throw new ApiError(502, 'Traccar did not open a session for the guest', 'WebApplicationException');
    try {
      const res = await upstream(ctx, '/api/session/token', {
        headers: { cookie },
        form: { expiration: until.toISOString() },
      });
      if (!res.ok) throw await relay(res);
      return (await res.text()).trim();
    } finally {
      await upstream(ctx, '/api/session', { method: 'DELETE', headers: { cookie } }).catch(() => undefined);
    }
  }

  app.get(`/${ns}/shares`, edge({ need: 'table' }), async (req) => {
    const { user } = await caller(req);
    return (await listShares(sql, user.administrator ? null : [user.id])).map(toShareRecord);
  });

  app.post(`/${ns}/shares`, createEdge, async (req) => {
    const { user, creds } = await caller(req);
    const input = edgeValue(shareCreateSchema, req.body);
    const until = shareExpiry(ctx, req, user, input.expirationTime);
    const headers = service(req, user);
    const kind = input.deviceId !== undefined ? 'device' : 'group';
    const id = (input.deviceId ?? input.groupId)!;
    const { name, guestSuffix } = await target(creds, kind, id);
    const res = await upstream(ctx, `/api/share/${kind}`, {
      headers: creds,
      form: { [`${kind}Id`]: String(id), expiration: until.toISOString() },
    });
    if (!res.ok) throw await relay(res);
    const token = (await res.text()).trim();
    const guestId = await findGuest(headers, `${user.email}:${guestSuffix}`);
    const rowId = await insertShare(sql, {
      creatorId: user.id,
      guestId,
      token,
      tokenId: sha256(token),
      deviceId: kind === 'device' ? id : null,
      groupId: kind === 'group' ? id : null,
      expirationTime: until.toISOString(),
      createdAt: new Date().toISOString(),
      targetName: name,
      creatorName: user.name ?? '',
    });
    await syncGuest(headers, guestId);
    return await listOne(rowId);
  });

  app.put(`/${ns}/shares/:id`, updateEdge, async (req) => {
    const { user } = await caller(req);
    const share = await visibleShare(req, user);
    await checkWrite(user);
    const input = edgeValue(shareUpdateSchema, req.body);
    const until = shareExpiry(ctx, req, user, input.expirationTime);
    const headers = service(req, user);
    const row = (await shareGuestToken(sql, share.id))!;
    if (!row.guestId) throw invalidInput(ctx, req, user, 'share.gatewayNeedsToken');
    const token = await guestToken(headers, row.guestId, until);
    await replaceShareToken(sql, share.id, {
      token,
      tokenId: sha256(token),
      expirationTime: until.toISOString(),
    });
    await revokeToken(headers, row.token);
    await syncGuest(headers, row.guestId);
    return await listOne(share.id);
  });

  app.delete(`/${ns}/shares/:id`, edge({ params: idParams, need: 'table' }), async (req, reply) => {
    const { user } = await caller(req);
    const share = await visibleShare(req, user);
    await checkWrite(user);
    const headers = service(req, user);
    const row = (await shareGuestToken(sql, share.id))!;
    await revokeToken(headers, row.token);
    await deleteShare(sql, share.id);
    await syncGuest(headers, row.guestId);
    return reply.status(204).send();
  });
}
