export {
  useBranding,
  useBrandingState,
  fetchBranding,
  defaultBranding,
  type Branding,
} from './useBranding.ts';
export { HeadLogo, logoWidthPercent } from './HeadLogo.tsx';
