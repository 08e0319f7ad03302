// The one place to act on an alarm (issue #32): call the customer (tel: link to the device owners' phones), block
// the engine (the app's slide-to-confirm dialog and its interlock, opened as the device detail opens it), share a
// short live link, add a note, acknowledge, assign to me, resolve with an outcome.
import {
  Anchor,
  Badge,
  Button,
  CopyButton,
  Group,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import {
  ALARM_OUTCOMES,
  alarmActDenial,
  deviceActionAllowed,
  deviceActionState,
  type Alarm,
  type AlarmOutcome,
} from '@rastro/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan, useViewer } from '../../components/useCan.ts';
import { openDeviceAction } from '../../shell/deviceActions.ts';
import { useLive } from '../../stores/live.ts';
import { alarmStep, createDeskShare, fetchAlarmContacts, type AlarmStepCall } from './api.ts';
import { SEVERITY_COLOR } from './AlarmQueue.tsx';
import { RequestError } from '../../components/RequestError.tsx';

function CallCustomer({ alarmId }: { alarmId: number }) {
  const { t } = useTranslation('monitoring');
  const phones = useQuery({
    queryKey: ['alarm-contacts', alarmId],
    queryFn: () => fetchAlarmContacts(alarmId),
  });
  if (!phones.data) return null;
  if (!phones.data.length)
    return (
      <Text size="sm" c="dimmed" data-testid="alarm-no-phone">
        {t('noPhone')}
      </Text>
    );
  return (
    <Stack gap={2}>
      {phones.data.map((p) => (
        <Anchor key={`${p.name}-${p.phone}`} href={`tel:${p.phone}`} data-testid="alarm-call" fw={600}>
          {t('call', { name: p.name, phone: p.phone })}
        </Anchor>
      ))}
    </Stack>
  );
}

function ShareLink({ deviceId }: { deviceId: number }) {
  const { t, i18n } = useTranslation('monitoring');
  const isPlus = useViewer().isPlus;
  const share = useMutation({ mutationFn: () => createDeskShare(deviceId, isPlus) });
  const made = share.data;
  return (
    <Stack gap={4}>
      <Button
        variant="light"
        onClick={() => share.mutate()}
        loading={share.isPending}
        data-testid="alarm-share"
      >
        {t('share')}
      </Button>
      {made && (
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <TextInput
            readOnly
            label={t('shareUntil', { date: new Date(made.until).toLocaleString(i18n.language) })}
            value={made.link}
            data-testid="alarm-share-link"
            style={{ flex: 1 }}
          />
          <CopyButton value={made.link}>
            {({ copied, copy }) => (
              <Button variant="subtle" onClick={copy}>
                {copied ? t('copied') : t('copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
      )}
      <RequestError error={share.error} fallback={t('error')} />
    </Stack>
  );
}

export function AlarmPanel({ alarm, onChanged }: { alarm: Alarm; onChanged: (a: Alarm) => void }) {
  const { t, i18n } = useTranslation('monitoring');
  const viewer = useViewer();
  const canAct = alarmActDenial(viewer) === null;
  const canShare = useCan('device.share');
  const device = useLive((s) => s.devices[alarm.deviceId]);
  // the same device-action rule as the device's detail and the block dialog
  const position = useLive((s) => s.positions[alarm.deviceId]);
  const anchored = useLive((s) => s.anchored.has(alarm.deviceId));
  const canBlock = deviceActionAllowed(viewer, 'block', deviceActionState(anchored, position));
  const [note, setNote] = useState('');
  const [outcome, setOutcome] = useState<AlarmOutcome | null>(null);
  const me = viewer.user?.id ?? 0;
  const resolved = alarm.state === 'resolved';
  const step = useMutation({
    mutationFn: (call: AlarmStepCall) => alarmStep(alarm.id, call),
    onSuccess: onChanged,
  });
  const act = (call: AlarmStepCall, after?: () => void) => step.mutate(call, { onSuccess: () => after?.() });
  const busy = step.isPending;
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : '');
  const trimmed = note.trim();

  return (
    <Stack gap="sm" data-testid="alarm-panel" data-alarm-id={alarm.id}>
      <Group justify="space-between" wrap="nowrap">
        <Stack gap={0}>
          <Text fw={700}>{t(`common:alarms.type.${alarm.type}`)}</Text>
          <Text size="sm">{alarm.deviceName}</Text>
        </Stack>
        <Badge color={SEVERITY_COLOR[alarm.severity]}>{t(`common:alarms.severity.${alarm.severity}`)}</Badge>
      </Group>
      <Text size="sm" data-testid="alarm-panel-state">
        {t(`common:alarms.state.${alarm.state}`)} · {when(alarm.time)}
        {alarm.count > 1 ? ` · ${t('repeats', { count: alarm.count })}` : ''}
      </Text>
      {alarm.ackUserName && (
        <Text size="sm">{t('ackBy', { name: alarm.ackUserName, date: when(alarm.ackTime) })}</Text>
      )}
      {alarm.assignedUserName && <Text size="sm">{t('assignedTo', { name: alarm.assignedUserName })}</Text>}
      {alarm.outcome && (
        <Text size="sm" data-testid="alarm-outcome-text">
          {t('resolvedAs', {
            outcome: t(`common:alarms.outcome.${alarm.outcome}`),
            name: alarm.resolveUserName ?? '',
          })}
        </Text>
      )}
      <CallCustomer alarmId={alarm.id} />
      {canBlock && device && (
        <Button
          color="red"
          onClick={() => openDeviceAction({ kind: 'block', device })}
          data-testid="alarm-block"
        >
          {t('block')}
        </Button>
      )}
      {canShare && <ShareLink deviceId={alarm.deviceId} />}
      {alarm.notes.length > 0 && (
        <Stack gap={2} data-testid="alarm-notes">
          {alarm.notes.map((n) => (
            <Text key={n.id} size="sm">
              <b>{n.userName}</b> ({when(n.time)}): {n.text}
            </Text>
          ))}
        </Stack>
      )}
      {canAct && (
        <Stack gap="xs">
          <Group gap="xs" grow>
            {alarm.state === 'open' && (
              <Button onClick={() => act({ step: 'ack' })} loading={busy} data-testid="alarm-ack">
                {t('ack')}
              </Button>
            )}
            {!resolved && alarm.assignedUserId !== me && (
              <Button
                variant="light"
                onClick={() => act({ step: 'assign', userId: me })}
                loading={busy}
                data-testid="alarm-assign-me"
              >
                {t('assignMe')}
              </Button>
            )}
          </Group>
          <Textarea
            label={t('note')}
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            autosize
            minRows={2}
            maxLength={2000}
            data-testid="alarm-note"
          />
          <Button
            variant="default"
            disabled={!trimmed}
            onClick={() => act({ step: 'note', text: trimmed }, () => setNote(''))}
            loading={busy}
            data-testid="alarm-note-add"
          >
            {t('addNote')}
          </Button>
          {!resolved && (
            <Group gap="xs" align="flex-end" wrap="wrap">
              <Select
                label={t('outcome')}
                placeholder={t('outcomePick')}
                value={outcome}
                onChange={(v) => setOutcome(v as AlarmOutcome | null)}
                comboboxProps={{ withinPortal: false }}
                data={ALARM_OUTCOMES.map((o) => ({ value: o, label: t(`common:alarms.outcome.${o}`) }))}
                data-testid="alarm-outcome"
                style={{ flex: 1, minWidth: 160 }}
              />
              <Button
                color="green"
                disabled={!outcome}
                loading={busy}
                data-testid="alarm-resolve"
                onClick={() =>
                  outcome &&
                  act({ step: 'resolve', outcome, ...(trimmed ? { note: trimmed } : {}) }, () => setNote(''))
                }
              >
                {t('resolve')}
              </Button>
            </Group>
          )}
        </Stack>
      )}
      <RequestError error={step.error} fallback={t('error')} testId="alarm-error" />
    </Stack>
  );
}
