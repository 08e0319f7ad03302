// SPEC §9: mobile = width 768 px or below, or a mobile user agent.
import { useMediaQuery } from '@mantine/hooks';

export const MOBILE_MAX_WIDTH = 768;
const MOBILE_UA = /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i;

export function isMobileUserAgent(
  ua: string = typeof navigator === 'undefined' ? '' : navigator.userAgent,
): boolean {
  return MOBILE_UA.test(ua);
}

export function useIsMobile(): boolean {
  const narrow = useMediaQuery(`(max-width: ${MOBILE_MAX_WIDTH}px)`, false, {
    getInitialValueInEffect: false,
  });
  return !!narrow || isMobileUserAgent();
}
