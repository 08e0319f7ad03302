// Branding and push configuration from GET /{ns}/assets/custom/config.json (SPEC §1).
import type { ThemeSettings } from '@rastro/domain';
import { useQuery } from '@tanstack/react-query';
import { ext } from '../api/http.ts';

/** The theme's fields (the domain's ThemeSettings, written by features/theme), push and the weather's lookups. */
export type Branding = ThemeSettings & {
  push: { enabled: boolean; vapidPublicKey: string };
  geolocation: { ipUrl: string; geoUrl: string };
};

export const defaultBranding: Branding = {
  title: 'Rastro',
  headLogo: { image: false, text: 'Rastro', url: '' },
  whatsapp: '',
  androidApp: '',
  appleApp: '',
  dataPolicy: '',
  push: { enabled: false, vapidPublicKey: '' },
  geolocation: { ipUrl: '', geoUrl: '' },
  logoWidth: 0,
  colors: { primary: '#228be6', header: '', menu: '', loginPanel: '' },
  login: { background: 'color', color: '', image: '', slides: [], gradient: [], logo: '' },
};

export async function fetchBranding(): Promise<Branding> {
  const data = await ext.get<Partial<Branding>>('/assets/custom/config.json');
  const d = typeof data === 'object' && data ? data : {};
  return {
    ...defaultBranding,
    ...d,
    headLogo: { ...defaultBranding.headLogo, ...d.headLogo },
    push: { ...defaultBranding.push, ...d.push },
    geolocation: { ...defaultBranding.geolocation, ...d.geolocation },
    colors: { ...defaultBranding.colors, ...d.colors },
    login: { ...defaultBranding.login, ...d.login },
  };
}

/** The TanStack Query key of the branding (invalidate it to re-read the config after a theme change). */
export const brandingQueryKey = ['branding'];

const brandingQuery = { queryKey: brandingQueryKey, queryFn: fetchBranding, staleTime: 5 * 60_000, retry: 1 };

export function useBranding(): Branding {
  return useBrandingState().branding;
}

/** The branding plus whether the config file was asked for already (answered or failed). */
export function useBrandingState(): { branding: Branding; settled: boolean } {
  const { data, isFetched } = useQuery(brandingQuery);
  return { branding: data ?? defaultBranding, settled: isFetched };
}
