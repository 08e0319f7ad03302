// The head logo (image or text) sized by the server attribute {ns}.logoWidth (percent of its box).
import { Image, Text } from '@mantine/core';
import { attrNumber } from '@rastro/domain';
import { useSession } from '../stores/session.ts';
import { useBranding } from './useBranding.ts';

export function logoWidthPercent(value: unknown): number | null {
  const n = attrNumber(value) ?? 0;
  return n > 0 && n <= 100 ? n : null;
}

export function HeadLogo({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const branding = useBranding();
  const attrWidth = useSession((s) => logoWidthPercent(s.server?.attributes?.[`${s.ns}.logoWidth`]));
  const width = attrWidth ?? logoWidthPercent(branding.logoWidth);
  const { headLogo } = branding;
  // the login screen (size lg) shows the theme's login logo when one was uploaded
  const loginLogo = size === 'lg' ? branding.login.logo : '';
  if (loginLogo || (headLogo.image && headLogo.url)) {
    return (
      <Image
        src={loginLogo || headLogo.url}
        alt={headLogo.text || branding.title}
        data-testid="head-logo"
        fit="contain"
        style={{ width: width ? `${width}%` : undefined, maxHeight: size === 'lg' ? 96 : 36 }}
      />
    );
  }
  return (
    <Text
      fw={700}
      size={size === 'lg' ? 'xl' : 'lg'}
      data-testid="head-logo"
      style={{ whiteSpace: 'nowrap' }}
    >
      {headLogo.text || branding.title}
    </Text>
  );
}
