// The one command-sending path (SPEC §4, §7), used by the send-command dialog and the engine block/unlock dialog:
// POST /api/commands/send; 200 = delivered, 202 = queued until the device reports (tracked as pending, toasted).
import { notifications } from '@mantine/notifications';
import type { Command } from '@rastro/domain';
import type { i18n as I18n } from 'i18next';
import { api } from '../api/http.ts';
import { usePendingCommands } from '../stores/pendingCommands.ts';

/**
 * Sends a command; true when it is queued. `pendingType` names a queued saved command (sent by id, without a type).
 * Accept-Language asks the server to write a refusal (403, e.g. the engine-block interlock) in the screen's language
 * (`i18n`: the screen's instance, useTranslation's).
 */
export async function sendDeviceCommand(
  i18n: I18n,
  command: Command,
  pendingType = command.type,
): Promise<boolean> {
  const headers = { 'Accept-Language': i18n.language };
  const res = await api.request<unknown>('POST', '/commands/send', { body: command, headers });
  if (res.status !== 202) return false;
  usePendingCommands.getState().add(command.deviceId, pendingType);
  const message = i18n.t('actions.commandPending', { ns: 'common' });
  notifications.show({ color: 'yellow', message, autoClose: 4500 });
  return true;
}
