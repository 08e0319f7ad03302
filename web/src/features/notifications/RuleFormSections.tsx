// The sections of the notification rule form (RuleForm.tsx): what fires the rule (type, alarms, channels, the
// command channel's saved command), where it applies (description, devices or "all devices", calendar) and how it
// looks (colour with its preview, sound played from the real file, position and pin).
import { ActionIcon, Group, MultiSelect, Paper, Select, Switch, Text, TextInput } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import {
  ALARM_TYPES,
  NOTIFICATION_COLORS,
  NOTIFICATION_COLOR_STYLES,
  NOTIFICATION_POSITIONS,
  SOUND_CHOICES,
  traccarName,
  type NotificationColor,
} from '@rastro/domain';
import type { TFunction } from 'i18next';
import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { useResourceList } from '../../api/resources.ts';
import { useResourceOptions } from '../../components/useResourceOptions.ts';
import type { RuleFormState } from './useRuleForm.ts';

const combobox = { withinPortal: true, zIndex: 1000 } as const;

/** A list field's label `fields.${label}`, its error, its test id `rule-${id}`, and its list over the modal. */
const listField = (s: RuleFormState, t: TFunction, label: string, error = label, id = label) => ({
  label: t(`fields.${label}`),
  error: s.err(error),
  'data-testid': `rule-${id}`,
  comboboxProps: combobox,
});

/** Type, alarms (alarm type), channels and the saved command of the command channel. */
export function RuleTriggerSection({ s }: { s: RuleFormState }) {
  const { t, i18n } = useTranslation('notifications');
  const { form, set, err, choices } = s;
  const usesCommand = form.notificators.includes('command');
  const commands = useResourceList('commands', undefined, { enabled: usesCommand });
  const typeName = (type: string) => traccarName('events', type, i18n.language);
  const typeData = [...new Set([...choices.types, ...(form.type ? [form.type] : [])])]
    .map((type) => ({ value: type, label: typeName(type) }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const channelData = [...new Set([...choices.channels, ...form.notificators])].map((c) => ({
    value: c,
    label: t(`channels.${c}`, { defaultValue: c }),
  }));
  return (
    <>
      <Select
        {...s.choice('type')}
        comboboxProps={combobox}
        data={typeData}
        searchable
        allowDeselect={false}
        withAsterisk
      />
      {form.type === 'alarm' && (
        <MultiSelect
          {...listField(s, t, 'alarms')}
          data={ALARM_TYPES.map((a) => ({ value: a, label: traccarName('alarms', a, i18n.language) }))}
          value={form.alarms}
          onChange={(alarms) => set({ alarms })}
          searchable
          withAsterisk
        />
      )}
      <MultiSelect
        {...listField(s, t, 'channels')}
        data={channelData}
        value={form.notificators}
        onChange={(notificators) => set({ notificators })}
        searchable
        error={err('notificators') ?? err('notificators.0')}
        withAsterisk
      />
      {usesCommand && (
        <Select
          {...listField(s, t, 'command', 'commandId')}
          data={(commands.data ?? []).map((c) => ({
            value: String(c.id),
            label: c.description || typeName(c.type),
          }))}
          value={form.commandId > 0 ? String(form.commandId) : null}
          onChange={(v) => set({ commandId: Number(v ?? 0) })}
          searchable
          withAsterisk
        />
      )}
    </>
  );
}

/** Description, the devices (events variant) or "all devices", and the calendar (required for events). */
export function RuleScopeSection({ s }: { s: RuleFormState }) {
  const { t } = useTranslation('notifications');
  const { form, set, variant } = s;
  const events = variant === 'events';
  const calendars = useResourceOptions('calendars', { none: events ? undefined : t('none') });
  const devices = useResourceOptions('devices', { enabled: events });
  return (
    <>
      <TextInput {...s.field('description')} />
      {events ? (
        <MultiSelect
          {...listField(s, t, 'devices', 'deviceIds')}
          data={devices}
          value={form.deviceIds.map(String)}
          onChange={(ids) => set({ deviceIds: ids.map(Number) })}
          searchable
          limit={100}
          withAsterisk
        />
      ) : (
        <Switch {...s.flag('always')} description={t('fields.alwaysHint')} />
      )}
      <Select
        {...listField(s, t, 'calendar', 'calendarId')}
        data={calendars}
        value={form.calendarId > 0 ? String(form.calendarId) : events ? null : '0'}
        onChange={(v) => set({ calendarId: Number(v ?? 0) })}
        allowDeselect={false}
        withAsterisk={events}
      />
    </>
  );
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

/** A square in the colour, bordered in its text colour (the select here, the rules' list in RuleManager). */
export function Swatch({
  color,
  size = 14,
  ...rest
}: { color: NotificationColor; size?: number } & ComponentProps<'span'>) {
  const c = NOTIFICATION_COLOR_STYLES[color];
  return (
    <span
      {...rest}
      style={{
        display: 'inline-block',
        width: size,
        height: size,
        borderRadius: size > 14 ? 4 : 3,
        background: c.bg,
        border: `1px solid ${c.fg}`,
        verticalAlign: 'middle',
      }}
    />
  );
}

/** Colour (previewed), sound (played), its URL when custom, position and pin of the live popup. */
export function RuleLookSection({ s }: { s: RuleFormState }) {
  const { t } = useTranslation('notifications');
  const { form, play } = s;
  const soundLabel = (x: string) =>
    x === 'custom' || x === 'mute' ? t(`sounds.${x}`) : t('sounds.audio', { n: x.replace('audio', '') });
  return (
    <>
      <Group grow align="flex-start">
        <Select
          {...s.choice('color')}
          comboboxProps={combobox}
          data={NOTIFICATION_COLORS.map((c) => ({ value: c, label: t(`colors.${c}`) }))}
          allowDeselect={false}
          leftSection={<Swatch color={form.color} />}
          renderOption={({ option }) => (
            <Group gap={6} wrap="nowrap">
              <Swatch color={option.value as NotificationColor} />
              {option.label}
            </Group>
          )}
        />
        <ColorPreview color={form.color} />
      </Group>
      <Group align="flex-end" wrap="nowrap">
        <Select
          style={{ flex: 1 }}
          {...s.choice('sound')}
          comboboxProps={combobox}
          data={SOUND_CHOICES.map((x) => ({ value: x, label: soundLabel(x) }))}
          allowDeselect={false}
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
          {...s.field('soundURL')}
          placeholder="https://…"
          withAsterisk
          data-testid="rule-sound-url"
        />
      )}
      <Group grow align="flex-end">
        <Select
          {...s.choice('position')}
          comboboxProps={combobox}
          data={NOTIFICATION_POSITIONS.map((p) => ({ value: p, label: t(`positions.${p}`) }))}
          allowDeselect={false}
        />
        <Switch {...s.flag('pin')} mb={8} />
      </Group>
    </>
  );
}
