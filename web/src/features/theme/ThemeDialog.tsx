// The white-label theme editor (dialog `theme`; user menu "Theme": admin of a Plus server, SPEC §2, §6).
// Tabs: identity (title, text or image logo, logo width, login logo), colours (primary, header, menu, login
// panel, with a live preview), login screen (colour, one image, a slider of 3 images at 1600x900, or an animated
// gradient) and links. Images upload at once (POST /{ns}/theme/images/{slot}); Save validates with the domain's
// schema and PUTs /{ns}/theme, then re-reads the branding so the app changes without a reload.
import { Alert, Modal, Stack, Tabs } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { parseTheme, themeFromBranding, type ThemeSettings, resellerDomainOf } from '@rastro/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { useSession } from '../../stores/session.ts';
import { brandingQueryKey, useBrandingState } from '../../branding/index.ts';
import { saveTheme } from './api.ts';
import { LoginSection } from './LoginSection.tsx';
import { ColoursSection, IdentitySection, LINKS, LinksSection, type SectionProps } from './ThemeSections.tsx';
import { useThemeUpload } from './useThemeUpload.tsx';
import { fieldBinder } from '../../components/boundField.ts';
import { DialogFrame } from '../../components/DialogFrame.tsx';
import { SaveCancel } from '../../components/SaveCancel.tsx';
import { useParsedForm } from '../../components/useParsedForm.ts';

/** The tabs in their order, each with its section. */
const TABS = [
  ['identity', IdentitySection],
  ['colors', ColoursSection],
  ['login', LoginSection],
  ['links', LinksSection],
] as const;
type Tab = (typeof TABS)[number][0];
const TAB_OF: Array<[string, Tab]> = [
  ['colors.', 'colors'],
  ['login.', 'login'],
  ...LINKS.map((k) => [k, 'links'] as [string, Tab]),
];
const tabOf = (path: string): Tab => TAB_OF.find(([p]) => path.startsWith(p))?.[1] ?? 'identity';

export function ThemeDialog({ onClose }: DialogComponentProps) {
  const { branding, settled } = useBrandingState();
  const { t } = useTranslation('theme');
  if (!settled) return <DialogFrame onClose={onClose} title={t('title')} testId="theme-dialog" loading />;
  return <ThemeForm initial={themeFromBranding(branding)} onClose={onClose} />;
}

function ThemeForm({ initial, onClose }: { initial: ThemeSettings; onClose(): void }) {
  const { t } = useTranslation('theme');
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<Tab>('identity');
  const { uploading, uploadButton } = useThemeUpload();
  // a reseller (not an administrator) saves the theme of its own domain (server: DATA_DIR/custom/domains/)
  const resellerDomain = useSession((s) => (s.user?.administrator ? '' : resellerDomainOf(s.user, s.ns)));
  // Save checks with the domain's schema (showing the tab of the first wrong field), PUTs, then re-reads the branding
  const { form, setForm, errors, err, busy, submit } = useParsedForm({
    ns: 'theme',
    initial,
    parse: (theme: ThemeSettings) => {
      const r = parseTheme(theme);
      if (r.ok) return { ok: true, value: r.theme };
      setTab(tabOf(r.issues[0].path));
      return { ok: false, errors: Object.fromEntries(r.issues.map((i) => [i.path, `errors.${i.message}`])) };
    },
    save: async (theme) => {
      await saveTheme(theme);
      await queryClient.invalidateQueries({ queryKey: brandingQueryKey });
    },
    failure: (_e, t) => t('saveError'),
    what: 'theme',
    onClose,
  });

  const update = (change: (draft: ThemeSettings) => void) =>
    setForm((f) => {
      const next = structuredClone(f);
      change(next);
      return next;
    });

  const text = fieldBinder({ t, values: form, set: (k, v) => update((d) => (d[k] = v)), err }, 'theme');
  const section: SectionProps = { form, update, err, text, uploadButton };

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
            {TABS.map(([tab]) => (
              <Tabs.Tab key={tab} value={tab} data-testid={`theme-tab-${tab}`}>
                {t(`tabs.${tab}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {TABS.map(([tab, Section]) => (
            <Tabs.Panel key={tab} value={tab} pt="sm">
              <Section {...section} />
            </Tabs.Panel>
          ))}
        </Tabs>

        {Object.keys(errors).length > 0 && (
          <Alert color="red" data-testid="theme-errors">
            {t('fixErrors')}
          </Alert>
        )}
        <SaveCancel
          onCancel={onClose}
          onSave={() => void submit()}
          loading={busy}
          disabled={uploading !== null}
          cancelTestId="theme-cancel"
          saveTestId="theme-save"
        />
      </Stack>
    </Modal>
  );
}
