// The white-label theme editor (dialog `theme`; user menu "Theme": admin of a Plus server, SPEC §2, §6).
// Tabs: identity (title, text or image logo, logo width, login logo), colours (primary, header, menu, login
// panel, with a live preview), login screen (colour, one image, a slider of 3 images at 1600x900, or an animated
// gradient) and links. Images upload at once (POST /{ns}/theme/images/{slot}); Save validates with the domain's
// schema and PUTs /{ns}/theme, then re-reads the branding so the app changes without a reload.
import {
  ActionIcon,
  Alert,
  Button,
  ColorInput,
  FileButton,
  Group,
  Loader,
  Modal,
  NumberInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import {
  LOGIN_BACKGROUNDS,
  parseTheme,
  SLIDER_MAX_IMAGES,
  SLIDER_RECOMMENDED,
  THEME_IMAGE_TYPES,
  themeFromBranding,
  type ThemeImageSlot,
  type ThemeSettings,
  resellerDomainOf,
} from '@rastro/domain';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { useSession } from '../../stores/session.ts';
import { brandingQueryKey, useBrandingState } from '../../branding/index.ts';
import { saveTheme, uploadErrorKey, uploadThemeImage } from './api.ts';
import { ColoursPreview, ImageSlot, LoginPreview } from './ThemeParts.tsx';

type Tab = 'identity' | 'colors' | 'login' | 'links';
const TAB_OF: Array<[string, Tab]> = [
  ['colors.', 'colors'],
  ['login.', 'login'],
  ['whatsapp', 'links'],
  ['androidApp', 'links'],
  ['appleApp', 'links'],
  ['dataPolicy', 'links'],
];
const tabOf = (path: string): Tab => TAB_OF.find(([p]) => path.startsWith(p))?.[1] ?? 'identity';
const ACCEPT = THEME_IMAGE_TYPES.join(',');
// Escape in a colour field closes its picker, never the whole dialog (the modal skips events from such targets).
const colourInputProps = { popoverProps: { zIndex: 1000 }, 'data-mantine-stop-propagation': 'true' } as const;

export function ThemeDialog({ onClose }: DialogComponentProps) {
  const { branding, settled } = useBrandingState();
  const { t } = useTranslation('theme');
  if (!settled) {
    return (
      <Modal opened onClose={onClose} title={t('title')} data-testid="theme-dialog">
        <Loader size="sm" />
      </Modal>
    );
  }
  return <ThemeForm initial={themeFromBranding(branding)} onClose={onClose} />;
}

function ThemeForm({ initial, onClose }: { initial: ThemeSettings; onClose(): void }) {
  const { t } = useTranslation('theme');
  const queryClient = useQueryClient();
  const [form, setForm] = useState<ThemeSettings>(initial);
  const [tab, setTab] = useState<Tab>('identity');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [uploading, setUploading] = useState<ThemeImageSlot | null>(null);
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  // a reseller (not an administrator) saves the theme of its own domain (server: DATA_DIR/custom/domains/)
  const resellerDomain = useSession((s) => (s.user?.administrator ? '' : resellerDomainOf(s.user, s.ns)));

  const update = (change: (draft: ThemeSettings) => void) =>
    setForm((f) => {
      const next = structuredClone(f);
      change(next);
      return next;
    });
  const err = (path: string) => (errors[path] ? t(`errors.${errors[path]}`) : undefined);

  const upload = async (slot: ThemeImageSlot, file: File | null, apply: (url: string) => void) => {
    if (!file) return;
    setUploading(slot);
    try {
      const url = await uploadThemeImage(slot, file);
      apply(url);
    } catch (e) {
      console.warn('theme image upload failed', e);
      notifications.show({ color: 'red', message: t(uploadErrorKey(e)) });
    } finally {
      setUploading(null);
    }
  };

  const save = async () => {
    if (running.current) return;
    const r = parseTheme(form);
    if (!r.ok) {
      setErrors(Object.fromEntries(r.issues.map((i) => [i.path, i.message])));
      setTab(tabOf(r.issues[0].path));
      return;
    }
    setErrors({});
    running.current = true;
    setBusy(true);
    try {
      await saveTheme(r.theme);
      await queryClient.invalidateQueries({ queryKey: brandingQueryKey });
      notifications.show({ color: 'green', message: t('saved') });
      onClose();
    } catch (e) {
      console.warn('theme save failed', e);
      notifications.show({ color: 'red', message: t('saveError') });
    } finally {
      running.current = false;
      setBusy(false);
    }
  };

  const uploadButton = (
    slot: ThemeImageSlot,
    label: string,
    apply: (url: string) => void,
    testId: string,
  ) => (
    <FileButton onChange={(f) => void upload(slot, f, apply)} accept={ACCEPT}>
      {(p) => (
        <Button
          {...p}
          size="xs"
          variant="light"
          leftSection={<IconUpload size={14} />}
          loading={uploading === slot}
          disabled={uploading !== null && uploading !== slot}
          data-testid={testId}
        >
          {label}
        </Button>
      )}
    </FileButton>
  );

  return (
    <Modal opened onClose={onClose} title={t('title')} size="lg" data-testid="theme-dialog">
      <Stack gap="sm">
        {resellerDomain && (
          <Alert color="blue" data-testid="theme-reseller-notice">
            {t('resellerNotice', { domain: resellerDomain })}
          </Alert>
        )}
        <Tabs value={tab} onChange={(v) => v && setTab(v as Tab)} keepMounted={false}>
          <Tabs.List grow>
            <Tabs.Tab value="identity" data-testid="theme-tab-identity">
              {t('tabs.identity')}
            </Tabs.Tab>
            <Tabs.Tab value="colors" data-testid="theme-tab-colors">
              {t('tabs.colors')}
            </Tabs.Tab>
            <Tabs.Tab value="login" data-testid="theme-tab-login">
              {t('tabs.login')}
            </Tabs.Tab>
            <Tabs.Tab value="links" data-testid="theme-tab-links">
              {t('tabs.links')}
            </Tabs.Tab>
          </Tabs.List>

          <Tabs.Panel value="identity" pt="sm">
            <Stack gap="sm">
              <TextInput
                label={t('fields.title')}
                description={t('hints.title')}
                value={form.title}
                onChange={(e) => {
                  const v = e.currentTarget.value;
                  update((d) => (d.title = v));
                }}
                error={err('title')}
                required
                data-testid="theme-title"
              />
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {t('fields.logo')}
                </Text>
                <SegmentedControl
                  value={form.headLogo.image ? 'image' : 'text'}
                  onChange={(v) => update((d) => (d.headLogo.image = v === 'image'))}
                  data={[
                    { value: 'text', label: t('logo.text') },
                    { value: 'image', label: t('logo.image') },
                  ]}
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
                action={uploadButton(
                  'logo',
                  t('upload'),
                  (url) =>
                    update((d) => {
                      d.headLogo.url = url;
                      d.headLogo.image = true;
                    }),
                  'theme-logo-upload',
                )}
                onRemove={() =>
                  update((d) => {
                    d.headLogo.url = '';
                    d.headLogo.image = false;
                  })
                }
                removeLabel={t('remove')}
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
                action={uploadButton(
                  'loginLogo',
                  t('upload'),
                  (url) => update((d) => (d.login.logo = url)),
                  'theme-login-logo-upload',
                )}
                onRemove={() => update((d) => (d.login.logo = ''))}
                removeLabel={t('remove')}
                height={64}
              />
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="colors" pt="sm">
            <Stack gap="sm">
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <ColorInput
                  label={t('fields.primary')}
                  value={form.colors.primary}
                  onChange={(v) => update((d) => (d.colors.primary = v))}
                  format="hex"
                  error={err('colors.primary')}
                  {...colourInputProps}
                  data-testid="theme-color-primary"
                />
                {(['header', 'menu', 'loginPanel'] as const).map((k) => (
                  <ColorInput
                    key={k}
                    label={t(`fields.${k}`)}
                    placeholder={t('hints.schemeColour')}
                    value={form.colors[k]}
                    onChange={(v) => update((d) => (d.colors[k] = v))}
                    format="hex"
                    error={err(`colors.${k}`)}
                    {...colourInputProps}
                    data-testid={`theme-color-${k}`}
                  />
                ))}
              </SimpleGrid>
              <ColoursPreview theme={form} />
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="login" pt="sm">
            <Stack gap="sm">
              <SegmentedControl
                value={form.login.background}
                onChange={(v) =>
                  update((d) => (d.login.background = v as ThemeSettings['login']['background']))
                }
                data={LOGIN_BACKGROUNDS.map((b) => ({ value: b, label: t(`background.${b}`) }))}
                data-testid="theme-bg-type"
              />
              {err('login.background') && <Alert color="red">{err('login.background')}</Alert>}
              {form.login.background === 'color' && (
                <ColorInput
                  label={t('fields.backgroundColor')}
                  value={form.login.color}
                  onChange={(v) => update((d) => (d.login.color = v))}
                  format="hex"
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
                  action={uploadButton(
                    'background',
                    t('upload'),
                    (url) => update((d) => (d.login.image = url)),
                    'theme-bg-image-upload',
                  )}
                  onRemove={() => update((d) => (d.login.image = ''))}
                  removeLabel={t('remove')}
                  height={90}
                />
              )}
              {form.login.background === 'slider' && (
                <Stack gap="xs" data-testid="theme-slides">
                  <Text size="sm" c="dimmed">
                    {t('hints.slider', { count: SLIDER_MAX_IMAGES, ...SLIDER_RECOMMENDED })}
                  </Text>
                  {err('login.slides') && (
                    <Text size="sm" c="red" data-testid="theme-slides-error">
                      {err('login.slides')}
                    </Text>
                  )}
                  <SimpleGrid cols={{ base: 1, sm: 3 }}>
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
                              ? uploadButton(
                                  slot,
                                  t('upload'),
                                  (u) =>
                                    update((d) => {
                                      if (i < d.login.slides.length) d.login.slides[i] = u;
                                      else d.login.slides.push(u);
                                    }),
                                  `theme-${slot}-upload`,
                                )
                              : null
                          }
                          onRemove={() => update((d) => void d.login.slides.splice(i, 1))}
                          removeLabel={t('remove')}
                          height={68}
                        />
                      );
                    })}
                  </SimpleGrid>
                </Stack>
              )}
              {form.login.background === 'animated' && (
                <Stack gap="xs">
                  <Text size="sm" c="dimmed">
                    {t('hints.animated')}
                  </Text>
                  {form.login.gradient.map((c, i) => (
                    <Group key={i} gap="xs" wrap="nowrap" align="flex-end">
                      <ColorInput
                        style={{ flex: 1 }}
                        label={t('fields.gradientColour', { n: i + 1 })}
                        value={c}
                        onChange={(v) => update((d) => (d.login.gradient[i] = v))}
                        format="hex"
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
                  {err('login.gradient') && (
                    <Text size="sm" c="red">
                      {err('login.gradient')}
                    </Text>
                  )}
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
                </Stack>
              )}
              <LoginPreview theme={form} />
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="links" pt="sm">
            <Stack gap="sm">
              {(['whatsapp', 'androidApp', 'appleApp', 'dataPolicy'] as const).map((k) => (
                <TextInput
                  key={k}
                  label={t(`fields.${k}`)}
                  placeholder={t(`placeholders.${k}`)}
                  value={form[k]}
                  onChange={(e) => {
                    const v = e.currentTarget.value;
                    update((d) => (d[k] = v));
                  }}
                  error={err(k)}
                  data-testid={`theme-${k}`}
                />
              ))}
              <Text size="xs" c="dimmed">
                {t('hints.links')}
              </Text>
            </Stack>
          </Tabs.Panel>
        </Tabs>

        {Object.keys(errors).length > 0 && (
          <Alert color="red" data-testid="theme-errors">
            {t('fixErrors')}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-testid="theme-cancel">
            {t('cancel')}
          </Button>
          <Button
            onClick={() => void save()}
            loading={busy}
            disabled={uploading !== null}
            data-testid="theme-save"
          >
            {t('save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
