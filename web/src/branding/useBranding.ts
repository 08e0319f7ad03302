// Branding and push configuration from GET /{ns}/assets/custom/config.json (SPEC §1).
import { useQuery } from '@tanstack/react-query';
import { ext } from '../api/http.ts';

export interface Branding {
  title: string;
  headLogo: { image: boolean; text: string; url: string };
  whatsapp: string;
  androidApp: string;
  appleApp: string;
  dataPolicy: string;
  push: { enabled: boolean; vapidPublicKey: string };
  geolocation: { ipUrl: string; geoUrl: string };
  /** Theme fields (PUT /{ns}/theme, features/theme): logo width %, 0 = automatic; colours; login screen. */
  logoWidth: number;
  colors: { primary: string; header: string; menu: string; loginPanel: string };
  login: {
    background: string;
    color: string;
    image: string;
    slides: string[];
    gradient: string[];
    logo: string;
  };
}

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
