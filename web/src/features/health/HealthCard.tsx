// The building blocks of /server-health: a labelled figure (one or a list of them), a titled card and the TLS card.
import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SslStatus } from './api.ts';

export function Figure({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} ta="right" data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
}

/** One figure row: its label, its value and the test id of the value. */
export type FigureRow = [label: string, value: ReactNode, testId?: string];

export function Figures({ rows }: { rows: FigureRow[] }) {
  return rows.map(([label, value, testId]) => (
    <Figure key={label} label={label} value={value} testId={testId} />
  ));
}

export function HealthCard({
  title,
  icon,
  testId,
  children,
}: {
  title: string;
  icon: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Card withBorder padding="sm" radius="md" data-testid={testId}>
      <Group gap="xs" mb="xs">
        {icon}
        <Title order={3} size="h6">
          {title}
        </Title>
      </Group>
      <Stack gap={4}>{children}</Stack>
    </Card>
  );
}

/** The TLS status told as it is: the certificate lives in the reverse proxy in front of Rastro. */
export function SslCard({ data, isError }: { data: SslStatus | undefined; isError: boolean }) {
  const { t } = useTranslation('health');
  return (
    <HealthCard title={t('cards.ssl')} icon={<IconLock size={18} />} testId="health-ssl">
      {isError && <Text size="sm">{t('sslError')}</Text>}
      {data && (
        <>
          <Text size="sm" data-testid="health-ssl-managed">
            {t('ssl.managedByProxy')}
          </Text>
          <Figure label={t('ssl.host')} value={data.host} />
          <Figure
            label={t('ssl.https')}
            value={
              <Badge color={data.https ? 'green' : 'orange'} data-testid="health-ssl-https">
                {data.https ? t('ssl.httpsOn') : t('ssl.httpsOff')}
              </Badge>
            }
          />
          {!data.https && (
            <Text size="xs" c="dimmed">
              {t('ssl.httpsHint')}
            </Text>
          )}
        </>
      )}
    </HealthCard>
  );
}
