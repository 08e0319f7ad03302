// The direct-message dialog of the users screen (SPEC §2 "a modal dialog to send a direct message to one user",
// §5 rules, §7 POST /notifications/send/{channel}?userId=). Channels are the domain's availableChannels for this
// recipient and sender, among those the server can deliver; they are sent one after another and each result
// (success, message, channel, subject, body) is listed. Results stay for 5 minutes (SENT_MESSAGE_RETENTION_MS).
// The server checks every rule again (channel, subject and body limits, manager scope).
import { Alert, Badge, Checkbox, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  BODY_LIMITS,
  MESSAGE_CHANNELS,
  SUBJECT_CHANNELS,
  availableChannels,
  isAdmin,
  directMessageProblem,
  purgeSentMessages,
  summarizeSendResults,
  type MessageChannel,
  type StoredSendResult,
  type User,
} from '@rastro/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, serverMessage } from '../../api/http.ts';
import { fieldBinder } from '../../components/boundField.ts';
import { SaveCancel } from '../../components/SaveCancel.tsx';
import { useNow } from '../../components/useNow.ts';
import { useServerTypes } from '../../components/useServerTypes.ts';
import { useSession } from '../../stores/session.ts';

/** Results of this browser session, purged after 5 minutes (module scope: reopening the dialog shows them). */
let sent: StoredSendResult[] = [];

export function MessageDialog({ recipient, onClose }: { recipient: User; onClose(): void }) {
  const { t } = useTranslation('users');
  const senderIsAdmin = useSession((s) => isAdmin(s.user));
  const { t: tc } = useTranslation('common');
  const configured = useServerTypes('/notifications/notificators') ?? [];
  const offered = availableChannels(recipient, senderIsAdmin).filter(
    (c) => c === 'web' || configured.includes(c),
  );
  const [channels, setChannels] = useState<string[]>(['web']);
  const [text, setText] = useState({ subject: '', body: '' });
  const { subject, body } = text;
  const field = fieldBinder(
    { t, values: text, set: (k, v) => setText({ ...text, [k]: v }), err: () => undefined },
    'message',
    'message',
  );
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  // drawn again every 10 s, so results leave after their five minutes; purged against the real time, as a result
  // sent after the last tick is later than that tick (and the purge drops results from the future)
  useNow(10_000);
  sent = purgeSentMessages(sent, Date.now());
  const recent = sent.filter((r) => r.userId === recipient.id);

  const chosen = MESSAGE_CHANNELS.filter((c) => channels.includes(c) && offered.includes(c));
  const problem = directMessageProblem(chosen, subject, body);
  const problemText = problem
    ? tc(problem.key, {
        max: problem.max ?? 0,
        channel: problem.channel ? t(`message.channel.${problem.channel}`) : '',
      })
    : null;
  const limit = Math.min(...chosen.map((c) => BODY_LIMITS[c]), BODY_LIMITS.mail);
  const needsSubject = chosen.some((c) => SUBJECT_CHANNELS.includes(c));

  const send = async () => {
    setTried(true);
    if (problem || busy) return;
    setBusy(true);
    const results: StoredSendResult[] = [];
    for (const channel of chosen) {
      const base = { channel, subject, body, at: Date.now(), userId: recipient.id };
      try {
        await api.post(`/notifications/send/${channel}`, { subject, body }, { userId: recipient.id });
        results.push({ ...base, success: true });
      } catch (e) {
        results.push({ ...base, success: false, message: serverMessage(e) ?? tc('messages.sendError') });
      }
    }
    sent = [...sent, ...results];
    const summary = summarizeSendResults(results);
    notifications.show({
      color: summary.outcome === 'success' ? 'green' : summary.outcome === 'warning' ? 'yellow' : 'red',
      message: tc(summary.key, { count: summary.sent, sent: summary.sent, total: summary.total }),
    });
    if (summary.outcome === 'success') {
      setText((m) => ({ ...m, body: '' }));
      setTried(false);
    }
    setBusy(false);
  };

  return (
    <Modal opened onClose={onClose} title={t('message.title', { name: recipient.name })} size="lg">
      <Stack data-testid="message-dialog">
        {offered.length === 0 ? (
          <Alert color="yellow">{t('message.none')}</Alert>
        ) : (
          <Checkbox.Group label={t('message.channels')} value={channels} onChange={setChannels}>
            <Group mt={4}>
              {offered.map((c: MessageChannel) => (
                <Checkbox
                  key={c}
                  value={c}
                  label={t(`message.channel.${c}`)}
                  data-testid={`message-channel-${c}`}
                />
              ))}
            </Group>
          </Checkbox.Group>
        )}
        <TextInput {...field('subject')} withAsterisk={needsSubject} />
        <Textarea
          {...field('body')}
          withAsterisk
          autosize
          minRows={3}
          description={t('message.counter', { count: body.length, max: limit })}
        />
        {tried && problemText && (
          <Alert color="red" data-testid="message-problem">
            {problemText}
          </Alert>
        )}
        <SaveCancel
          cancel={t('message.cancel')}
          save={t('message.send')}
          onCancel={onClose}
          onSave={() => void send()}
          loading={busy}
          saveTestId="message-send"
        />
        {recent.length > 0 && (
          <Stack gap={4} data-testid="message-results">
            <Text size="sm" fw={500}>
              {t('message.recent')}
            </Text>
            {recent.map((r, i) => (
              <Group
                key={`${r.at}-${r.channel}-${i}`}
                gap="xs"
                wrap="nowrap"
                data-testid={`message-result-${r.channel}`}
              >
                <Badge color={r.success ? 'green' : 'red'} variant="light">
                  {t(`message.channel.${r.channel}`)}: {r.success ? t('message.ok') : t('message.failed')}
                </Badge>
                <Text size="sm" lineClamp={1}>
                  {r.subject ? `${r.subject} — ` : ''}
                  {r.body}
                  {r.message ? ` (${r.message})` : ''}
                </Text>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}
