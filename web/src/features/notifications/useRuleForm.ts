// The state of the notification rule form (RuleForm.tsx): the form and its field errors, the server's type and
// channel choices, the sound preview, the test-send (POST /api/notifications/test/web) and saving with the events
// variant's device links through the shared parse-and-save form (components/useParsedForm.ts).
import { notifications } from '@mantine/notifications';
import {
  NOTIFICATION_TYPES,
  NOTIFICATOR_CHANNELS,
  parseRuleForm,
  soundUrl,
  type NotificationRuleForm,
  type RuleVariant,
} from '@rastro/domain';
import { useMutation } from '@tanstack/react-query';
import { api, HttpError, serverMessage } from '../../api/http.ts';
import { useSaveResource } from '../../api/resources.ts';
import { choiceBinder, fieldBinder, flagBinder } from '../../components/boundField.ts';
import { useParsedForm } from '../../components/useParsedForm.ts';
import { useServerTypes } from '../../components/useServerTypes.ts';
import { useSession } from '../../stores/session.ts';
import { applyDeviceLinks } from './links.ts';

/** The server's text of a failure (first line), or the error's message. */
export const errorText = (err: unknown) =>
  err instanceof HttpError ? (serverMessage(err) ?? `HTTP ${err.status}`) : String(err);

export interface RuleFormOptions {
  variant: RuleVariant;
  /** The events variant's deviceIds: the devices the rule was linked to when the form opened. */
  initial: NotificationRuleForm;
  onClose(): void;
}

export function useRuleForm({ variant, initial, onClose }: RuleFormOptions) {
  const ns = useSession((s) => s.ns);
  const save = useSaveResource('notifications');
  // types and channels offered by the server (the SPEC lists until they load)
  const choices = {
    types: useServerTypes('/notifications/types') ?? [...NOTIFICATION_TYPES],
    channels: useServerTypes('/notifications/notificators') ?? [...NOTIFICATOR_CHANNELS],
  };
  const f = useParsedForm({
    ns: 'notifications',
    initial,
    // a stored rule keeps its type and channels even when this server no longer offers them
    parse: (v: NotificationRuleForm) => {
      const r = parseRuleForm(v, {
        variant,
        ns,
        types: [...choices.types, ...(initial.type ? [initial.type] : [])],
        channels: [...choices.channels, ...initial.notificators],
      });
      return r.ok ? { ok: true, value: r } : r;
    },
    save: async ({ rule, deviceIds }) => {
      const saved = await save.mutateAsync(rule);
      if (variant === 'events') await applyDeviceLinks(saved.id, initial.deviceIds, deviceIds);
    },
    failure: (e, t) => t('saveError', { error: errorText(e) }),
    what: 'notification rule',
    onClose,
  });
  const { t, form, setForm } = f;

  const set = (patch: Partial<NotificationRuleForm>) => setForm((prev) => ({ ...prev, ...patch }));
  // the fields' props: label `fields.<key>`, value, change, error, test id `rule-<key>` (components/boundField.ts)
  const bound = { t, values: form, set: (k: string, v: string | boolean) => set({ [k]: v }), err: f.err };

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

  // the test-send of the rule as it stands; its outcome is shown until the next one
  const test = useMutation({
    mutationFn: () =>
      api.post('/notifications/test/web', { type: form.type, notificators: form.notificators.join(',') }),
  });
  const testResult = test.isSuccess
    ? { ok: true, text: t('testSent') }
    : test.isError && { ok: false, text: t('testError', { error: errorText(test.error) }) };

  return {
    variant,
    form,
    set,
    err: f.err,
    field: fieldBinder(bound, 'rule'),
    choice: choiceBinder(bound, 'rule'),
    flag: flagBinder(bound, 'rule'),
    choices,
    busy: f.busy,
    testResult,
    play,
    runTest: () => test.mutate(),
    submit: f.submit,
  };
}

export type RuleFormState = ReturnType<typeof useRuleForm>;
