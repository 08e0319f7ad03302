// The identity, colours and links tabs of the theme editor, and what every tab is given.
import { ColorInput, NumberInput, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { ThemeSettings } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import type { fieldBinder } from '../../components/boundField.ts';
import { ColoursPreview, ImageSlot } from './ThemeParts.tsx';
import type { UploadButton } from './useThemeUpload.tsx';

/** What each tab of the theme editor is given: the form, its change, its errors, its top-level text fields' props
 * (components/boundField.ts) and the upload button. */
export interface SectionProps {
  form: ThemeSettings;
  update(change: (draft: ThemeSettings) => void): void;
  err(path: string): string | undefined;
  text: ReturnType<typeof fieldBinder<ThemeSettings>>;
  uploadButton: UploadButton;
}

// Escape in a colour field closes its picker, never the whole dialog (the modal skips events from such targets).
export const colourInputProps = {
  format: 'hex',
  popoverProps: { zIndex: 1000 },
  'data-mantine-stop-propagation': 'true',
} as const;

export function IdentitySection({ form, update, err, text, uploadButton }: SectionProps) {
  const { t } = useTranslation('theme');
  return (
    <Stack gap="sm">
      <TextInput {...text('title')} description={t('hints.title')} required />
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('fields.logo')}
        </Text>
        <SegmentedControl
          value={form.headLogo.image ? 'image' : 'text'}
          onChange={(v) => update((d) => (d.headLogo.image = v === 'image'))}
          data={['text', 'image'].map((kind) => ({ value: kind, label: t(`logo.${kind}`) }))}
          data-testid="theme-logo-kind"
        />
      </Stack>
      <TextInput
        label={t('fields.logoText')}
        description={t('hints.logoText')}
        value={form.headLogo.text}
        onChange={(e) => {
          const v = e.currentTarget.value;
          update((d) => (d.headLogo.text = v));
        }}
        error={err('headLogo.text')}
        data-testid="theme-logo-text"
      />
      <ImageSlot
        label={t('fields.logoImage')}
        url={form.headLogo.url}
        error={err('headLogo.url')}
        testId="theme-logo"
        action={uploadButton('logo', (url) =>
          update((d) => {
            d.headLogo.url = url;
            d.headLogo.image = true;
          }),
        )}
        onRemove={() =>
          update((d) => {
            d.headLogo.url = '';
            d.headLogo.image = false;
          })
        }
        height={48}
      />
      <NumberInput
        label={t('fields.logoWidth')}
        description={t('hints.logoWidth')}
        value={form.logoWidth}
        onChange={(v) => update((d) => (d.logoWidth = typeof v === 'number' ? v : Number(v) || 0))}
        min={0}
        max={100}
        allowDecimal={false}
        suffix=" %"
        error={err('logoWidth')}
        data-testid="theme-logo-width"
      />
      <ImageSlot
        label={t('fields.loginLogo')}
        url={form.login.logo}
        error={err('login.logo')}
        testId="theme-login-logo"
        action={uploadButton('loginLogo', (url) => update((d) => (d.login.logo = url)))}
        onRemove={() => update((d) => (d.login.logo = ''))}
        height={64}
      />
    </Stack>
  );
}

export function ColoursSection({ form, update, err }: SectionProps) {
  const { t } = useTranslation('theme');
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {(['primary', 'header', 'menu', 'loginPanel'] as const).map((k) => (
          <ColorInput
            key={k}
            label={t(`fields.${k}`)}
            // the primary colour has no scheme default to fall back to
            placeholder={k === 'primary' ? undefined : t('hints.schemeColour')}
            value={form.colors[k]}
            onChange={(v) => update((d) => (d.colors[k] = v))}
            error={err(`colors.${k}`)}
            {...colourInputProps}
            data-testid={`theme-color-${k}`}
          />
        ))}
      </SimpleGrid>
      <ColoursPreview theme={form} />
    </Stack>
  );
}

/** The links tab's fields (the company's WhatsApp, apps and data policy). */
export const LINKS = ['whatsapp', 'androidApp', 'appleApp', 'dataPolicy'] as const;

export function LinksSection({ text }: SectionProps) {
  const { t } = useTranslation('theme');
  return (
    <Stack gap="sm">
      {LINKS.map((k) => (
        <TextInput key={k} {...text(k)} placeholder={t(`placeholders.${k}`)} />
      ))}
      <Text size="xs" c="dimmed">
        {t('hints.links')}
      </Text>
    </Stack>
  );
}
