// Log in as (SPEC §6, docs/users.md): while an administrator uses another user's account, a strip over the whole
// app says whose account it is and gives the one-click way back (POST /{ns}/session/return). It takes its own row
// above the header, so it never covers the map or its controls, on a phone too.
import { Button, Group, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { User } from '@rastro/domain';
import { ext } from '../api/http.ts';
import { useSession } from '../stores/session.ts';

/** The administrator behind this session (GET /{ns}/session/original). */
type OriginalUser = Pick<User, 'id' | 'name' | 'email'>;

/** Reloads the app on `to`: devices, positions and the live socket start again as the new session's user. */
export const reloadAs = (to: string) => window.location.assign(to);

export function LoginAsBanner({ reload = reloadAs }: { reload?: (to: string) => void }) {
  const { t } = useTranslation('shell');
  const user = useSession((s) => s.user);
  const original = useQuery({
    queryKey: ['session-original', user?.id],
    queryFn: async () => ((await ext.get('/session/original')) as OriginalUser | undefined) ?? null,
    enabled: !!user,
    staleTime: Infinity,
  });
  // back to the administrator's own account; the button spins until the reload
  const back = useMutation({
    mutationFn: () => ext.post('/session/return'),
    onSuccess: () => reload('/users'),
  });
  if (!user || !original.data) return null;
  return (
    <Group
      data-testid="login-as-banner"
      role="status"
      justify="center"
      gap="xs"
      wrap="wrap"
      px="sm"
      py={4}
      bg="orange.1"
      c="orange.9"
      style={{ flex: '0 0 auto', borderBottom: '1px solid var(--mantine-color-orange-3)' }}
    >
      <Text size="sm" fw={500}>
        {t('loginAs.banner', { name: user.name || user.email })}
      </Text>
      <Button
        size="compact-sm"
        color="orange"
        leftSection={<IconArrowBackUp size={14} />}
        onClick={() => back.mutate()}
        loading={back.isPending || back.isSuccess}
        data-testid="login-as-return"
      >
        {t('loginAs.return')}
      </Button>
    </Group>
  );
}
