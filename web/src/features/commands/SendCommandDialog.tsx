// Send a saved or custom command to one device (dialog `sendCommand`, props { deviceId }). Saved commands come
// from GET /api/commands/send?deviceId=, the types the device supports from GET /api/commands/types?deviceId=.
// Sent through shell/sendCommand.ts: 200 = sent; 202 = queued until the device reports (tracked as pending).
import { Alert, Button, Group, Loader, Modal, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { canSendCommands, type Command } from '@rastro/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, refusalMessage } from '../../api/http.ts';
import { useViewer } from '../../components/useCan.ts';
import { useServerTypes } from '../../components/useServerTypes.ts';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { sendDeviceCommand } from '../../shell/sendCommand.ts';
import { useLive } from '../../stores/live.ts';
import { CommandFields } from './CommandFields.tsx';
import { emptyCommandForm, parseCommandForm, type CommandFormValues } from './commandForm.ts';

export function SendCommandDialog({ props: { deviceId }, onClose }: DialogComponentProps<'sendCommand'>) {
  const { t, i18n } = useTranslation('commands');
  const device = useLive((s) => s.devices[deviceId]);
  const customAllowed = canSendCommands(useViewer());

  const saved = useQuery({
    queryKey: ['commands', 'send', deviceId],
    queryFn: () => api.get<Command[]>('/commands/send', { deviceId }),
    enabled: deviceId > 0,
  });
  const typeList = useServerTypes('/commands/types', { deviceId }, deviceId > 0 && customAllowed);

  const [mode, setMode] = useState<'saved' | 'custom'>(customAllowed ? 'custom' : 'saved');
  const [savedId, setSavedId] = useState<string | null>(null);
  const [form, setForm] = useState<CommandFormValues>(() => emptyCommandForm('custom'));
  const [errors, setErrors] = useState<Record<string, string>>({});
  // the form starts on `custom`; a device that does not take it (an OsmAnd phone) starts on its first type
  const current: CommandFormValues =
    typeList?.length && !typeList.includes(form.type) ? { ...form, type: typeList[0], attributes: {} } : form;

  const sending = useMutation({
    // a saved command goes by id: its pending entry is named by its type
    mutationFn: (body: Command) =>
      sendDeviceCommand(
        i18n,
        body,
        body.id ? (saved.data?.find((c) => c.id === body.id)?.type ?? 'saved') : body.type,
      ),
    onSuccess: (queued) => {
      if (queued) return;
      notifications.show({ color: 'green', message: t('sent') });
      onClose();
    },
    onError: (err) => {
      console.warn('command failed', err);
      const message = refusalMessage(err) ?? t('actions.commandError', { ns: 'common' });
      notifications.show({ color: 'red', message });
    },
  });
  const pending = sending.data === true;

  const send = () => {
    // one request at a time (a double click sends one)
    if (sending.isPending) return;
    const id = mode === 'saved' ? Number(savedId) : 0;
    const r = mode === 'custom' ? parseCommandForm(current) : null;
    if (r && !r.ok) return setErrors(r.errors);
    if (!r && !id) return setErrors({ saved: 'validation.savedRequired' });
    setErrors({});
    const byId = { type: '', description: null, textChannel: false, attributes: {} }; // a saved one: its id
    sending.mutate({ ...(r ? r.command : byId), id, deviceId });
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('send.title', { name: device?.name ?? '' })}
      data-testid="send-command-dialog"
    >
      <Stack gap="sm">
        {customAllowed && (
          <SegmentedControl
            value={mode}
            onChange={(v) => setMode(v as 'saved' | 'custom')}
            data={['custom', 'saved'].map((m) => ({ value: m, label: t(`send.${m}`) }))}
            data-testid="send-mode"
          />
        )}
        {mode === 'saved' ? (
          saved.isLoading ? (
            <Loader size="sm" />
          ) : saved.data?.length ? (
            <Select
              label={t('send.savedLabel')}
              data={saved.data.map((c) => ({ value: String(c.id), label: c.description || c.type }))}
              value={savedId}
              onChange={setSavedId}
              error={errors.saved ? t(errors.saved) : undefined}
              data-testid="send-saved"
              comboboxProps={{ withinPortal: true, zIndex: 1000 }}
            />
          ) : (
            <Text size="sm" c="dimmed" data-testid="send-no-saved">
              {t('send.noSaved')}
            </Text>
          )
        ) : (
          <CommandFields value={current} onChange={setForm} errors={errors} types={typeList} />
        )}
        {pending && (
          <Alert color="yellow" data-testid="send-pending">
            {t('send.pending', { name: device?.name ?? '' })}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-testid="send-cancel">
            {pending ? t('close') : t('cancel')}
          </Button>
          {!pending && (
            <Button
              onClick={send}
              loading={sending.isPending}
              // nothing to send: no saved command linked to the device (the text above says so)
              disabled={mode === 'saved' && !saved.isLoading && !saved.data?.length}
              data-testid="send-submit"
            >
              {t('send.submit')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
