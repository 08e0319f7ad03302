export { useBranding, fetchBranding, defaultBranding, type Branding } from './useBranding.ts';
export { HeadLogo, logoWidthPercent } from './HeadLogo.tsx';
