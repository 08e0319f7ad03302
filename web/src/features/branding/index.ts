export {
  useBranding,
  useBrandingState,
  fetchBranding,
  defaultBranding,
  brandingQueryKey,
  type Branding,
} from './useBranding.ts';
export { HeadLogo, logoWidthPercent } from './HeadLogo.tsx';
