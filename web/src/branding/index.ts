export { useBranding, useBrandingState, fetchBranding, brandingQueryKey } from './useBranding.ts';
export { HeadLogo, logoWidthPercent } from './HeadLogo.tsx';
export { LoginBackground } from './LoginBackground.tsx';
export { BrandMantineProvider } from './BrandMantineProvider.tsx';
export { gradientCss } from './brand.ts';
