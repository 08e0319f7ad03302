// The SMS API of the server settings (SPEC §3 "an SMS API (url, key, type, refer)"; server attributes
// {ns}.smsApiUrl, {ns}.smsApiKey, {ns}.smsApiType, {ns}.smsApiRefer, set in the Server dialog's integrations tab).
// Used by the sms channel when the environment configures no SMS gateway (SMS_HTTP_URL wins when set). Three
// request shapes, as SMS providers of the region accept them:
//   get   GET  <url>?key=<key>&to=<phone>&message=<text>[&refer=<refer>]
//   post  POST <url>, form-urlencoded key, to, message[, refer]
//   json  POST <url>, JSON {key, to, message[, refer]}  (the default)
export interface SmsApiSettings {
  url: string;
  key: string;
  type: 'get' | 'post' | 'json';
  refer: string;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** The SMS API of the server attributes, or null when no URL is set. */
export function smsApiSettings(serverAttributes: Record<string, unknown>, ns: string): SmsApiSettings | null {
  const url = text(serverAttributes[`${ns}.smsApiUrl`]);
  if (!/^https?:\/\//i.test(url)) return null;
  const type = text(serverAttributes[`${ns}.smsApiType`]);
  return {
    url,
    key: text(serverAttributes[`${ns}.smsApiKey`]),
    type: type === 'get' || type === 'post' ? type : 'json',
    refer: text(serverAttributes[`${ns}.smsApiRefer`]),
  };
}

/** The HTTP request that sends `message` to `phone` through the API. */
export function smsApiRequest(
  s: SmsApiSettings,
  phone: string,
  message: string,
): { url: string; init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } } {
  const fields: Record<string, string> = { key: s.key, to: phone, message };
  if (s.refer) fields.refer = s.refer;
  if (s.type === 'get') {
    const url = new URL(s.url);
    for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
    return { url: url.toString(), init: { method: 'GET' } };
  }
  if (s.type === 'post')
    return {
      url: s.url,
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      },
    };
  return {
    url: s.url,
    init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) },
  };
}

/** Sends one SMS through the API; a non-2xx answer is an error with the provider's first words. */
export async function sendSmsApi(s: SmsApiSettings, phone: string, message: string): Promise<void> {
  const { url, init } = smsApiRequest(s, phone, message);
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  if (!res.ok)
    throw new Error(`HTTP ${res.status} from ${new URL(url).host}: ${(await res.text()).slice(0, 200)}`);
}
