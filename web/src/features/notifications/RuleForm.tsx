// The notification rule form (SPEC §3 Notification rule, §5, §9): type from GET /api/notifications/types, alarms
// when the type is alarm, channels from GET /api/notifications/notificators, "all devices", calendar, the saved
// command of the command channel, colour (previewed), sound (played from the real file), pin and position; the
// events variant picks devices and needs a calendar. Test = POST /api/notifications/test/web.
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Modal,
  MultiSelect,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import {
  ALARM_TYPES,
  NOTIFICATION_COLORS,
  NOTIFICATION_COLOR_STYLES,
  NOTIFICATION_POSITIONS,
  NOTIFICATION_TYPES,
  NOTIFICATOR_CHANNELS,
  SOUND_CHOICES,
  parseRuleForm,
  soundUrl,
  traccarName,
  type NotificationColor,
  type NotificationRuleForm,
  type RuleVariant,
} from '@rastro/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, HttpError, serverMessage } from '../../api/http.ts';
import { useResourceList, useSaveResource } from '../../api/resources.ts';
import { useSession } from '../../stores/session.ts';
import { applyDeviceLinks } from './links.ts';

const combobox = { withinPortal: true, zIndex: 1000 } as const;

/** The server's text of a failure (first line), or the error's message. */
export const errorText = (err: unknown) =>
  err instanceof HttpError ? (serverMessage(err) ?? `HTTP ${err.status}`) : String(err);

/** Types and channels offered by the server (the SPEC lists until they load). */
export function useRuleChoices() {
  const types = useQuery({
    queryKey: ['notifications', 'types'],
    queryFn: () => api.get<Array<{ type: string }>>('/notifications/types'),
    staleTime: 10 * 60_000,
  });
  const channels = useQuery({
    queryKey: ['notifications', 'notificators'],
    queryFn: () => api.get<Array<{ type: string }>>('/notifications/notificators'),
    staleTime: 10 * 60_000,
  });
  return {
    types: types.data?.map((x) => x.type) ?? [...NOTIFICATION_TYPES],
    channels: channels.data?.map((x) => x.type) ?? [...NOTIFICATOR_CHANNELS],
  };
}

/** A small card in the chosen colour, as the live popup shows it. */
function ColorPreview({ color }: { color: NotificationColor }) {
  const { t } = useTranslation('notifications');
  const c = NOTIFICATION_COLOR_STYLES[color];
  return (
    <Paper
      p="xs"
      shadow="xs"
      data-testid="rule-color-preview"
      data-color={color}
      style={{ background: c.bg, color: c.fg }}
    >
      <Text size="sm" fw={700}>
        {t('fields.preview')}
      </Text>
      <Text size="xs">{t(`colors.${color}`)}</Text>
    </Paper>
  );
}

function Swatch({ color }: { color: NotificationColor }) {
  const c = NOTIFICATION_COLOR_STYLES[color];
  return (
    <span
      style={{
        display: 'inline-block',
        width: 14,
        height: 14,
        borderRadius: 3,
        background: c.bg,
        border: `1px solid ${c.fg}`,
        verticalAlign: 'middle',
      }}
    />
  );
}

export interface RuleFormProps {
  variant: RuleVariant;
  initial: NotificationRuleForm;
  /** Devices the rule was linked to when the form opened (events variant). */
  linkedBefore: number[];
  onClose(): void;
}

export function RuleForm({ variant, initial, linkedBefore, onClose }: RuleFormProps) {
  const { t, i18n } = useTranslation('notifications');
  const ns = useSession((s) => s.ns);
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string } | null>(null);
  const save = useSaveResource('notifications');
  const choices = useRuleChoices();
  const calendars = useResourceList('calendars');
  const usesCommand = form.notificators.includes('command');
  const commands = useResourceList('commands', undefined, { enabled: usesCommand });
  const devices = useResourceList('devices', undefined, { enabled: variant === 'events' });

  const set = (patch: Partial<NotificationRuleForm>) => setForm((f) => ({ ...f, ...patch }));
  const err = (k: string) => (errors[k] ? t(errors[k]) : undefined);
  const typeName = (type: string) => traccarName('events', type, i18n.language);

  const typeData = [...new Set([...choices.types, ...(form.type ? [form.type] : [])])]
    .map((type) => ({ value: type, label: typeName(type) }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const channelData = [...new Set([...choices.channels, ...form.notificators])].map((c) => ({
    value: c,
    label: t(`channels.${c}`, { defaultValue: c }),
  }));
  const soundLabel = (s: string) =>
    s === 'custom' || s === 'mute' ? t(`sounds.${s}`) : t('sounds.audio', { n: s.replace('audio', '') });

  const play = () => {
    if (form.sound === 'mute') return;
    const url = form.sound === 'custom' ? form.soundURL.trim() : soundUrl(form.sound, ns);
    if (!url) return;
    const audio = new Audio(url);
    void audio.play()?.catch((e: unknown) => {
      console.warn('sound not played', e);
      notifications.show({ color: 'red', message: t('soundError') });
    });
  };

  const runTest = async () => {
    setTestResult(null);
    try {
      await api.post('/notifications/test/web', {
        type: form.type,
        notificators: form.notificators.join(','),
      });
      setTestResult({ ok: true, text: t('testSent') });
    } catch (e) {
      setTestResult({ ok: false, text: t('testError', { error: errorText(e) }) });
    }
  };

  const submit = async () => {
    // a stored rule keeps its type and channels even when this server no longer offers them
    const r = parseRuleForm(form, {
      variant,
      ns,
      types: [...choices.types, ...(initial.type ? [initial.type] : [])],
      channels: [...choices.channels, ...initial.notificators],
    });
    if (!r.ok) {
      setErrors(r.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const saved = await save.mutateAsync(r.rule);
      if (variant === 'events') await applyDeviceLinks(saved.id, linkedBefore, r.deviceIds);
      notifications.show({ color: 'green', message: t('saved') });
      onClose();
    } catch (e) {
      console.warn('notification rule not saved', e);
      notifications.show({ color: 'red', message: t('saveError', { error: errorText(e) }) });
    } finally {
      setBusy(false);
    }
  };

  const title =
    variant === 'events'
      ? t(form.id > 0 ? 'eventEditTitle' : 'eventAddTitle')
      : t(form.id > 0 ? 'editTitle' : 'addTitle');

  return (
    <Modal opened onClose={onClose} title={title} size="lg" data-testid="rule-form">
      <Stack gap="xs">
        <Select
          label={t('fields.type')}
          data={typeData}
          value={form.type || null}
          searchable
          allowDeselect={false}
          onChange={(type) => set({ type: type ?? '' })}
          error={err('type')}
          withAsterisk
          data-testid="rule-type"
          comboboxProps={combobox}
        />
        {form.type === 'alarm' && (
          <MultiSelect
            label={t('fields.alarms')}
            data={ALARM_TYPES.map((a) => ({ value: a, label: traccarName('alarms', a, i18n.language) }))}
            value={form.alarms}
            onChange={(alarms) => set({ alarms })}
            searchable
            error={err('alarms')}
            withAsterisk
            data-testid="rule-alarms"
            comboboxProps={combobox}
          />
        )}
        <MultiSelect
          label={t('fields.channels')}
          data={channelData}
          value={form.notificators}
          onChange={(notificators) => set({ notificators })}
          searchable
          error={err('notificators') ?? err('notificators.0')}
          withAsterisk
          data-testid="rule-channels"
          comboboxProps={combobox}
        />
        {usesCommand && (
          <Select
            label={t('fields.command')}
            data={(commands.data ?? []).map((c) => ({
              value: String(c.id),
              label: c.description || typeName(c.type),
            }))}
            value={form.commandId > 0 ? String(form.commandId) : null}
            onChange={(v) => set({ commandId: Number(v ?? 0) })}
            searchable
            error={err('commandId')}
            withAsterisk
            data-testid="rule-command"
            comboboxProps={combobox}
          />
        )}
        <TextInput
          label={t('fields.description')}
          value={form.description}
          onChange={(e) => set({ description: e.currentTarget.value })}
          error={err('description')}
          data-testid="rule-description"
        />
        {variant === 'events' ? (
          <MultiSelect
            label={t('fields.devices')}
            data={(devices.data ?? []).map((d) => ({ value: String(d.id), label: d.name }))}
            value={form.deviceIds.map(String)}
            onChange={(ids) => set({ deviceIds: ids.map(Number) })}
            searchable
            limit={100}
            error={err('deviceIds')}
            withAsterisk
            data-testid="rule-devices"
            comboboxProps={combobox}
          />
        ) : (
          <Switch
            label={t('fields.always')}
            description={t('fields.alwaysHint')}
            checked={form.always}
            onChange={(e) => set({ always: e.currentTarget.checked })}
            data-testid="rule-always"
          />
        )}
        <Select
          label={t('fields.calendar')}
          data={[
            ...(variant === 'events' ? [] : [{ value: '0', label: t('none') }]),
            ...(calendars.data ?? []).map((c) => ({ value: String(c.id), label: c.name })),
          ]}
          value={form.calendarId > 0 ? String(form.calendarId) : variant === 'events' ? null : '0'}
          onChange={(v) => set({ calendarId: Number(v ?? 0) })}
          allowDeselect={false}
          error={err('calendarId')}
          withAsterisk={variant === 'events'}
          data-testid="rule-calendar"
          comboboxProps={combobox}
        />
        <Group grow align="flex-start">
          <Select
            label={t('fields.color')}
            data={NOTIFICATION_COLORS.map((c) => ({ value: c, label: t(`colors.${c}`) }))}
            value={form.color}
            onChange={(v) => v && set({ color: v as NotificationColor })}
            allowDeselect={false}
            leftSection={<Swatch color={form.color} />}
            renderOption={({ option }) => (
              <Group gap={6} wrap="nowrap">
                <Swatch color={option.value as NotificationColor} />
                {option.label}
              </Group>
            )}
            error={err('color')}
            data-testid="rule-color"
            comboboxProps={combobox}
          />
          <ColorPreview color={form.color} />
        </Group>
        <Group align="flex-end" wrap="nowrap">
          <Select
            style={{ flex: 1 }}
            label={t('fields.sound')}
            data={SOUND_CHOICES.map((s) => ({ value: s, label: soundLabel(s) }))}
            value={form.sound}
            onChange={(v) => v && set({ sound: v })}
            allowDeselect={false}
            error={err('sound')}
            data-testid="rule-sound"
            comboboxProps={combobox}
          />
          <ActionIcon
            size="lg"
            variant="light"
            aria-label={t('fields.play')}
            title={t('fields.play')}
            disabled={form.sound === 'mute'}
            onClick={play}
            data-testid="rule-sound-play"
          >
            <IconPlayerPlay size={18} />
          </ActionIcon>
        </Group>
        {form.sound === 'custom' && (
          <TextInput
            label={t('fields.soundURL')}
            value={form.soundURL}
            placeholder="https://…"
            onChange={(e) => set({ soundURL: e.currentTarget.value })}
            error={err('soundURL')}
            withAsterisk
            data-testid="rule-sound-url"
          />
        )}
        <Group grow align="flex-end">
          <Select
            label={t('fields.position')}
            data={NOTIFICATION_POSITIONS.map((p) => ({ value: p, label: t(`positions.${p}`) }))}
            value={form.position}
            onChange={(v) => v && set({ position: v as NotificationRuleForm['position'] })}
            allowDeselect={false}
            data-testid="rule-position"
            comboboxProps={combobox}
          />
          <Switch
            label={t('fields.pin')}
            checked={form.pin}
            onChange={(e) => set({ pin: e.currentTarget.checked })}
            data-testid="rule-pin"
            mb={8}
          />
        </Group>
        {testResult && (
          <Alert color={testResult.ok ? 'green' : 'red'} data-testid="rule-test-result">
            {testResult.text}
          </Alert>
        )}
        <Group justify="space-between" mt="xs">
          <Button variant="light" onClick={() => void runTest()} data-testid="rule-test">
            {t('test')}
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button onClick={() => void submit()} loading={busy} data-testid="rule-save">
              {t('save')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
