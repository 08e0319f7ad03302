// /asistente-demo (SPEC §2; issue #11; docs/assistant.md): a chat about the user's own fleet. Each question goes to
// POST /{ns}/assistant, which parses it (pt-BR, es, en-US) and answers from the server's data, offline; the answer's
// vehicles are listed as cards with a link to the vehicle on the map. Sample questions name one of the user's
// vehicles.
import { Anchor, Button, Card, Group, Paper, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { IconMapPin, IconSend } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import {
  ASSISTANT_SAMPLES,
  assistantDenial,
  devicePlate,
  normalizeLocale,
  parseQuestion,
} from '@rastro/domain';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { ext } from '../../api/http.ts';
import { useLive } from '../../stores/live.ts';
import { useViewer } from '../../components/useCan.ts';
import { RequestError } from '../../components/RequestError.tsx';

interface AnswerItem {
  deviceId: number;
  name: string;
  detail: string;
  latitude: number | null;
  longitude: number | null;
}

interface Answer {
  intent: string;
  text: string;
  items: AnswerItem[];
}

type Turn = { id: number; from: 'user'; text: string } | { id: number; from: 'assistant'; answer: Answer };

let nextId = 1;

export function AssistantPage() {
  const { t, i18n } = useTranslation('assistant');
  const [turns, setTurns] = useState<Turn[]>([]);
  const [text, setText] = useState('');
  const bottom = useRef<HTMLDivElement>(null);
  const firstDevice = useLive((s) => {
    const list = Object.values(s.devices);
    return list.length ? list.reduce((a, b) => (a.id < b.id ? a : b)) : null;
  });
  const sampleName = firstDevice ? (devicePlate(firstDevice) ?? firstDevice.name) : 'ABC1D23';
  // Report questions are offered only to users who may see reports (the server refuses the others: issue #27).
  const viewer = useViewer();
  const samples = ASSISTANT_SAMPLES[normalizeLocale(i18n.language) ?? 'pt-BR']
    .filter((s) => !assistantDenial(viewer, parseQuestion(s).intent))
    .map((s) => s.replace('{{name}}', sampleName));

  const ask = useMutation({
    mutationFn: (question: string) => ext.post<Answer>('/assistant', { text: question }),
    onSuccess: (answer) => setTurns((list) => [...list, { id: nextId++, from: 'assistant', answer }]),
  });

  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [turns.length]);

  const send = (question: string) => {
    const q = question.trim();
    if (!q || ask.isPending) return;
    setTurns((list) => [...list, { id: nextId++, from: 'user', text: q }]);
    setText('');
    ask.mutate(q);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    send(text);
  };

  return (
    <Stack gap="sm" p="sm" h="100%" data-testid="assistant">
      <Text size="sm" c="dimmed">
        {t('description')}
      </Text>
      <Group gap={6} aria-label={t('examples')}>
        {samples.map((s) => (
          <Button
            key={s}
            size="compact-xs"
            variant="light"
            onClick={() => send(s)}
            data-testid="assistant-sample"
          >
            {s}
          </Button>
        ))}
      </Group>
      <ScrollArea style={{ flex: 1 }} offsetScrollbars>
        <Stack gap="xs" role="log" aria-live="polite" data-testid="assistant-log">
          {turns.map((turn) =>
            turn.from === 'user' ? (
              <Paper key={turn.id} p="xs" radius="md" bg="var(--mantine-color-blue-light)" ml="xl">
                <Text size="xs" c="dimmed">
                  {t('you')}
                </Text>
                <Text size="sm">{turn.text}</Text>
              </Paper>
            ) : (
              <Paper key={turn.id} p="xs" radius="md" withBorder mr="xl" data-testid="assistant-answer">
                <Text size="xs" c="dimmed">
                  {t('assistant')}
                </Text>
                <Text size="sm" data-testid="assistant-answer-text">
                  {turn.answer.text}
                </Text>
                {turn.answer.items.length > 0 && (
                  <Stack gap={4} mt={6}>
                    {turn.answer.items.map((item) => (
                      <Card key={item.deviceId} p={6} withBorder data-testid="assistant-item">
                        <Group justify="space-between" wrap="nowrap" gap="xs">
                          <div>
                            <Text size="sm" fw={500}>
                              {item.name}
                            </Text>
                            {item.detail && (
                              <Text size="xs" c="dimmed">
                                {item.detail}
                              </Text>
                            )}
                          </div>
                          {item.latitude !== null && (
                            <Anchor
                              component={Link}
                              to={`/devices/${item.deviceId}`}
                              size="xs"
                              data-testid="assistant-map-link"
                            >
                              <Group gap={2} wrap="nowrap">
                                <IconMapPin size={14} />
                                {t('openOnMap')}
                              </Group>
                            </Anchor>
                          )}
                        </Group>
                      </Card>
                    ))}
                  </Stack>
                )}
              </Paper>
            ),
          )}
          <RequestError error={ask.error} fallback={t('error')} testId="assistant-error" />
          <div ref={bottom} />
        </Stack>
      </ScrollArea>
      <form onSubmit={submit}>
        <Group gap="xs" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            aria-label={t('question')}
            placeholder={t('placeholder')}
            value={text}
            maxLength={500}
            onChange={(e) => setText(e.currentTarget.value)}
            data-testid="assistant-input"
          />
          <Button
            type="submit"
            loading={ask.isPending}
            leftSection={<IconSend size={16} />}
            data-testid="assistant-send"
          >
            {t('send')}
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
