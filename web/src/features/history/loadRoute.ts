// Route load of SPEC §7/§8: GET /api/reports/route?deviceId&from&to, read as text so a JSON parse problem is told
// apart ('route.badFormat'); 404 ⇒ 'route.noData'; not an array / not positions ⇒ 'route.invalidData'; no or
// another failed answer ⇒ 'route.invalidResponse'; an empty period ⇒ 'route.noData'.
import { parseRoute, routeLoadErrorKey, type RouteParse } from '@rastro/domain';
import { api, HttpError, type HttpClient } from '../../api/http.ts';

export async function loadRoute(
  deviceId: number,
  from: string,
  to: string,
  client: HttpClient = api,
  signal?: AbortSignal,
): Promise<RouteParse> {
  let text: string;
  try {
    const res = await client.request<string>('GET', '/reports/route', {
      query: { deviceId, from, to },
      responseType: 'text',
      signal,
    });
    text = res.data;
  } catch (err) {
    if (signal?.aborted) throw err;
    return { ok: false, error: routeLoadErrorKey(err instanceof HttpError ? { status: err.status } : null) };
  }
  return readRouteText(text, parseRoute);
}

/** A route answer's text read by `parse`; a JSON parse problem is told apart ('route.badFormat'). */
export function readRouteText(text: string, parse: (json: unknown) => RouteParse): RouteParse {
  let json: unknown;
  try {
    json = text === '' ? null : JSON.parse(text);
  } catch (err) {
    return { ok: false, error: routeLoadErrorKey(err instanceof Error ? err : null) };
  }
  return parse(json);
}
