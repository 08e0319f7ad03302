// The login-screen tab of the theme editor: a colour, one image, a slider of images or an animated gradient,
// with a live preview.
import {
  ActionIcon,
  Alert,
  Button,
  ColorInput,
  Group,
  Input,
  SegmentedControl,
  SimpleGrid,
  Stack,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import {
  LOGIN_BACKGROUNDS,
  SLIDER_MAX_IMAGES,
  SLIDER_RECOMMENDED,
  type ThemeImageSlot,
  type ThemeSettings,
} from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { ImageSlot, LoginPreview } from './ThemeParts.tsx';
import { colourInputProps, type SectionProps } from './ThemeSections.tsx';

export function LoginSection({ form, update, err, uploadButton }: SectionProps) {
  const { t } = useTranslation('theme');
  return (
    <Stack gap="sm">
      <SegmentedControl
        value={form.login.background}
        onChange={(v) => update((d) => (d.login.background = v as ThemeSettings['login']['background']))}
        data={LOGIN_BACKGROUNDS.map((b) => ({ value: b, label: t(`background.${b}`) }))}
        data-testid="theme-bg-type"
      />
      {err('login.background') && <Alert color="red">{err('login.background')}</Alert>}
      {form.login.background === 'color' && (
        <ColorInput
          label={t('fields.backgroundColor')}
          value={form.login.color}
          onChange={(v) => update((d) => (d.login.color = v))}
          error={err('login.color')}
          {...colourInputProps}
          data-testid="theme-bg-color"
        />
      )}
      {form.login.background === 'image' && (
        <ImageSlot
          label={t('fields.backgroundImage')}
          hint={t('hints.recommended', SLIDER_RECOMMENDED)}
          url={form.login.image}
          error={err('login.image')}
          testId="theme-bg-image"
          action={uploadButton('background', (url) => update((d) => (d.login.image = url)))}
          onRemove={() => update((d) => (d.login.image = ''))}
          height={90}
        />
      )}
      {form.login.background === 'slider' && (
        <Input.Wrapper
          description={t('hints.slider', { count: SLIDER_MAX_IMAGES, ...SLIDER_RECOMMENDED })}
          error={err('login.slides')}
          errorProps={{ 'data-testid': 'theme-slides-error' }}
          data-testid="theme-slides"
        >
          <SimpleGrid cols={{ base: 1, sm: 3 }} my="xs">
            {Array.from({ length: SLIDER_MAX_IMAGES }, (_, i) => {
              const slot = `slide${i + 1}` as ThemeImageSlot;
              const url = form.login.slides[i] ?? '';
              const enabled = i <= form.login.slides.length;
              return (
                <ImageSlot
                  key={slot}
                  label={t('fields.slide', { n: i + 1 })}
                  url={url}
                  testId={`theme-${slot}`}
                  action={
                    enabled
                      ? uploadButton(slot, (u) =>
                          update((d) => {
                            if (i < d.login.slides.length) d.login.slides[i] = u;
                            else d.login.slides.push(u);
                          }),
                        )
                      : null
                  }
                  onRemove={() => update((d) => void d.login.slides.splice(i, 1))}
                  height={68}
                />
              );
            })}
          </SimpleGrid>
        </Input.Wrapper>
      )}
      {form.login.background === 'animated' && (
        <Input.Wrapper description={t('hints.animated')} error={err('login.gradient')}>
          {form.login.gradient.map((c, i) => (
            <Group key={i} gap="xs" wrap="nowrap" align="flex-end" mb="xs">
              <ColorInput
                style={{ flex: 1 }}
                label={t('fields.gradientColour', { n: i + 1 })}
                value={c}
                onChange={(v) => update((d) => (d.login.gradient[i] = v))}
                {...colourInputProps}
                data-testid={`theme-gradient-${i}`}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                disabled={form.login.gradient.length <= 2}
                onClick={() => update((d) => void d.login.gradient.splice(i, 1))}
                aria-label={t('remove')}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          {form.login.gradient.length < 4 && (
            <Button
              size="xs"
              variant="subtle"
              leftSection={<IconPlus size={14} />}
              onClick={() => update((d) => void d.login.gradient.push('#ffffff'))}
              style={{ alignSelf: 'flex-start' }}
            >
              {t('addColour')}
            </Button>
          )}
        </Input.Wrapper>
      )}
      <LoginPreview theme={form} />
    </Stack>
  );
}
