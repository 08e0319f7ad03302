// The attributes of a device's last position on its detail: the favourites first (the user's, then the server's;
// only the user's can be unpinned), then the others, the known ones by label and the unknown ones apart, by raw key
// (issue #29). Pinning saves the user's list ({ns}.deviceAttributes).
import { ActionIcon, Group, Stack, Text } from '@mantine/core';
import { IconPin, IconPinnedOff } from '@tabler/icons-react';
import {
  attributeLabel,
  describeAttributes,
  favoriteAttributes,
  formatAttributeValue,
  nsKey,
  togglePinned,
  type AttributeFormatContext,
  type Attributes,
  type User,
} from '@rastro/domain';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/http.ts';
import { useSession } from '../../stores/session.ts';

/** Pins or unpins an attribute in the signed-in user's favourites. */
function usePinning() {
  const ns = useSession((s) => s.ns);
  const user = useSession((s) => s.user);
  const setUser = useSession((s) => s.setUser);
  const save = useMutation({
    mutationFn: (next: User) => api.put<User>(`/users/${next.id}`, next),
    onSuccess: setUser,
    onError: (err) => console.warn('favourite not saved', err),
  });
  const togglePin = (key: string) => {
    if (!user || save.isPending) return;
    const listKey = nsKey(ns, 'deviceAttributes');
    save.mutate({
      ...user,
      attributes: { ...user.attributes, [listKey]: togglePinned(user.attributes?.[listKey], key) },
    });
  };
  return { signedIn: !!user, togglePin };
}

export function DeviceAttributes({ attrs, fmt }: { attrs: Attributes; fmt: AttributeFormatContext }) {
  const { t, i18n } = useTranslation('devices');
  const ns = useSession((s) => s.ns);
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const { signedIn, togglePin } = usePinning();
  const fav = favoriteAttributes(server, user, ns);
  const favKeys = fav.map((f) => f.key);
  const pinnedByUser = new Set(fav.filter((f) => f.source === 'user').map((f) => f.key));
  const favourites = favKeys.filter((k) => attrs[k] !== undefined);
  const others = Object.keys(attrs)
    .sort()
    .filter((k) => !favKeys.includes(k));
  const described = describeAttributes(Object.fromEntries(others.map((k) => [k, attrs[k]])), fmt);
  const attributeRow = (a: { key: string; label: string; value: string }) => (
    <Group key={a.key} justify="space-between" wrap="nowrap" data-testid={`attr-${a.key}`}>
      <Text size="sm" c="dimmed">
        {a.label}
      </Text>
      <Group gap={4} wrap="nowrap">
        <Text size="sm">{a.value}</Text>
        <ActionIcon
          size="sm"
          variant="subtle"
          aria-label={t('detail.pin')}
          onClick={() => togglePin(a.key)}
          disabled={!signedIn}
        >
          <IconPin size={14} />
        </ActionIcon>
      </Group>
    </Group>
  );

  return (
    <>
      {favourites.length > 0 && (
        <Stack gap={2} data-testid="detail-favourites">
          <Text size="sm" fw={700}>
            {t('detail.favourites')}
          </Text>
          {favourites.map((k) => (
            <Group key={k} justify="space-between" wrap="nowrap">
              <Text size="sm">{attributeLabel(k, i18n.language)}</Text>
              <Group gap={4} wrap="nowrap">
                <Text size="sm" fw={600}>
                  {formatAttributeValue(k, attrs[k], fmt)}
                </Text>
                {pinnedByUser.has(k) && (
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    aria-label={t('detail.unpin')}
                    onClick={() => togglePin(k)}
                  >
                    <IconPinnedOff size={14} />
                  </ActionIcon>
                )}
              </Group>
            </Group>
          ))}
        </Stack>
      )}

      <Stack gap={2} data-testid="detail-attributes">
        <Text size="sm" fw={700}>
          {t('detail.attributes')}
        </Text>
        <Stack gap={2} data-testid="detail-known">
          {described.known.map(attributeRow)}
        </Stack>
        {described.others.length > 0 && (
          <Stack gap={2} data-testid="detail-others">
            <Text size="xs" fw={700} c="dimmed" mt={4}>
              {t('detail.others')}
            </Text>
            {described.others.map(attributeRow)}
          </Stack>
        )}
      </Stack>
    </>
  );
}
