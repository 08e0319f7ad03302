// A Nominatim-compatible reverse geocoder client (GET {url}/reverse?format=jsonv2&lat&lon): the real adapter;
// tests run it against a local fake server.
import { VERSION } from '../../traccar/server.ts';

export interface ReverseGeocoder {
  reverse(latitude: number, longitude: number, language: string): Promise<string | null>;
}

interface NominatimAnswer {
  display_name?: string;
  error?: string;
  address?: Record<string, string>;
}

/** "Rua X, 10, Bairro, Cidade - UF" style from Nominatim's address parts, else its display_name. */
export function formatAddress(answer: NominatimAnswer): string | null {
  const a = answer.address;
  if (a) {
    const street = a.road ?? a.pedestrian ?? a.footway ?? a.path;
    const first = [street, a.house_number].filter(Boolean).join(', ');
    const district = a.suburb ?? a.neighbourhood ?? a.quarter;
    const city = a.city ?? a.town ?? a.village ?? a.municipality;
    const region = a.state_code ?? a.state;
    const parts = [first, district, [city, region].filter(Boolean).join(' - ')].filter((p) => p && p !== '');
    if (parts.length >= 2) return parts.join(', ');
  }
  return answer.display_name?.trim() || null;
}

export function nominatimClient(o: { url: string; key?: string; timeoutMs: number }): ReverseGeocoder {
  const base = o.url.replace(/\/+$/, '');
  return {
    async reverse(latitude, longitude, language) {
      const q = new URLSearchParams({
        format: 'jsonv2',
        lat: String(latitude),
        lon: String(longitude),
        zoom: '18',
        addressdetails: '1',
        'accept-language': language,
      });
      if (o.key) q.set('key', o.key);
      const res = await fetch(`${base}/reverse?${q}`, {
        headers: { 'user-agent': `Rastro/${VERSION}`, accept: 'application/json' },
        signal: AbortSignal.timeout(o.timeoutMs),
      });
      if (!res.ok) throw new Error(`geocoder answered ${res.status}`);
      const answer = (await res.json()) as NominatimAnswer;
      if (answer.error) return null; // e.g. "Unable to geocode" in the sea
      return formatAddress(answer);
    },
  };
}
