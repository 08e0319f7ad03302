// MantineProvider fed by the branding config (GET /{ns}/assets/custom/config.json): the theme editor's primary
// colour becomes Mantine's primary palette, and the header / menu / login panel colours become CSS variables.
// It only observes the branding query (enabled: false): the header and sign-in screens fetch it, so a saved
// theme applies without a reload once the query is invalidated.
import {
  MantineProvider,
  type MantineProviderProps,
  type MantineTheme,
  type MantineThemeOverride,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { brandingQueryKey, fetchBranding } from './useBranding.ts';
import { brandCssVariables, brandMantineTheme } from './brand.ts';
import { contrastDarkVariables, contrastLightVariables } from '../shell/theme.ts';

export function BrandMantineProvider({
  theme,
  ...props
}: MantineProviderProps & { theme: MantineThemeOverride }) {
  const { data } = useQuery({ queryKey: brandingQueryKey, queryFn: fetchBranding, enabled: false });
  // the query keeps the same colours object while the config's colours stay the same
  const colors = data?.colors;
  const primary = colors?.primary;
  const branded = useMemo(() => brandMantineTheme(theme, primary), [theme, primary]);
  const resolver = useCallback(
    (t: MantineTheme) => ({
      variables: brandCssVariables(colors),
      light: contrastLightVariables(t),
      dark: contrastDarkVariables(t),
    }),
    [colors],
  );
  return <MantineProvider {...props} theme={branded} cssVariablesResolver={resolver} />;
}
