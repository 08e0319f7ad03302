// /autolink and /autolink/{id} (SPEC §2; docs/autolink.md): link a tracker to one's account in one step. The
// identifier is typed or comes from the link on the tracker's sticker (/autolink/<identifier>); the page says
// whether the server has already heard from it (GET /{ns}/autolink), and "Link to my account" creates the device
// (POST /{ns}/autolink), which then appears on the map with its last report.
import { Alert, Anchor, Button, Card, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { TRACKER_ID, autolinkSchema, type AutolinkStatus, type Device } from '@rastro/domain';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { ext } from '../../api/http.ts';
import { intlLocale } from '../../i18n/index.ts';
import { RequestError } from '../../components/RequestError.tsx';
import { fieldBinder } from '../../components/boundField.ts';

export function AutolinkPage() {
  const { t } = useTranslation('autolink');
  const { id } = useParams();
  const [values, setValues] = useState(() => ({ uniqueId: id ? decodeURIComponent(id) : '', name: '' }));
  const [tried, setTried] = useState(false);
  const clean = values.uniqueId.trim();
  const validId = TRACKER_ID.test(clean);
  const status = useQuery({
    queryKey: ['autolink', clean],
    queryFn: () => ext.get<AutolinkStatus>('/autolink', { uniqueId: clean }),
    enabled: validId,
  });
  const link = useMutation({
    mutationFn: (body: { uniqueId: string; name: string }) => ext.post<Device>('/autolink', body),
  });
  const parsed = autolinkSchema.safeParse(values);
  const issue = parsed.success ? undefined : parsed.error.issues[0];
  const field = fieldBinder(
    {
      t,
      values,
      set: (key, value) => setValues((v) => ({ ...v, [key]: value })),
      err: (key) =>
        tried && issue?.path[0] === key && issue.message ? t(issue.message, { ns: 'common' }) : undefined,
    },
    'autolink',
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!parsed.success || status.data?.registered) return;
    link.mutate(parsed.data);
  };

  const when = (iso: string) =>
    new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));

  return (
    <Stack p="sm" gap="sm" data-testid="autolink">
      <Text size="sm" c="dimmed">
        {t('description')}
      </Text>
      {link.data ? (
        <Alert color="green" data-testid="autolink-done">
          <Stack gap={4}>
            {t('done', { name: link.data.name })}
            <Anchor component={Link} to={`/devices/${link.data.id}`} data-testid="autolink-open">
              {t('open')}
            </Anchor>
          </Stack>
        </Alert>
      ) : (
        <form onSubmit={submit}>
          <Stack gap="sm">
            <TextInput {...field('uniqueId')} description={t('identifierHint')} autoComplete="off" />
            {validId && status.data && (
              <Card withBorder p="xs" data-testid="autolink-status">
                <Text size="sm">
                  {status.data.registered
                    ? t('common:autolink.registered')
                    : status.data.seen && status.data.lastSeen
                      ? t('seen', { time: when(status.data.lastSeen), count: status.data.reports })
                      : t('notSeen')}
                </Text>
              </Card>
            )}
            <TextInput {...field('name')} />
            <RequestError error={link.error} fallback={t('error')} testId="autolink-error" />
            <Button
              type="submit"
              loading={link.isPending}
              disabled={!!status.data?.registered}
              data-testid="autolink-submit"
            >
              {t('submit')}
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
