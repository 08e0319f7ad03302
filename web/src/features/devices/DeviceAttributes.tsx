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
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/http.ts';
import { useCan } from '../../components/useCan.ts';
import { useSession } from '../../stores/session.ts';

/**
 * Pins or unpins an attribute in the signed-in user's favourites; `allowed`: the access table's device.pin (a
 * read-only account or a share guest cannot save its own user, so it is offered no pin).
 */
function usePinning() {
  const { t } = useTranslation('devices');
  const ns = useSession((s) => s.ns);
  const user = useSession((s) => s.user);
  const setUser = useSession((s) => s.setUser);
  const allowed = useCan('device.pin');
  const save = useMutation({
    mutationFn: (next: User) => api.put<User>(`/users/${next.id}`, next),
    onSuccess: setUser,
    onError: (err) => {
      console.warn('favourite not saved', err);
      notifications.show({ color: 'red', message: t('detail.pinFailed') });
    },
  });
  const togglePin = (key: string) => {
    if (!user || !allowed || save.isPending) return;
    const listKey = nsKey(ns, 'deviceAttributes');
    save.mutate({
      ...user,
      attributes: { ...user.attributes, [listKey]: togglePinned(user.attributes?.[listKey], key) },
    });
  };
  return { allowed, togglePin };
}

export function DeviceAttributes({ attrs, fmt }: { attrs: Attributes; fmt: AttributeFormatContext }) {
  const { t, i18n } = useTranslation('devices');
  const ns = useSession((s) => s.ns);
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const { allowed, togglePin } = usePinning();
  const fav = favoriteAttributes(server, user, ns);
  const favKeys = fav.map((f) => f.key);
  const pinnedByUser = new Set(fav.filter((f) => f.source === 'user').map((f) => f.key));
  const favourites = favKeys
    .filter((k) => attrs[k] !== undefined)
    .map((key) => ({
      key,
      label: attributeLabel(key, i18n.language),
      value: formatAttributeValue(key, attrs[key], fmt),
    }));
  const others = Object.keys(attrs)
    .sort()
    .filter((k) => !favKeys.includes(k));
  const described = describeAttributes(Object.fromEntries(others.map((k) => [k, attrs[k]])), fmt);
  /** A favourite (its value bold; unpinned only when the user pinned it) or another attribute (pinned). */
  const attributeRow = (
    { key, label, value }: { key: string; label: string; value: string },
    fav = false,
  ) => (
    <Group key={key} justify="space-between" wrap="nowrap" data-testid={fav ? undefined : `attr-${key}`}>
      <Text size="sm" c={fav ? undefined : 'dimmed'}>
        {label}
      </Text>
      <Group gap={4} wrap="nowrap">
        <Text size="sm" fw={fav ? 600 : undefined}>
          {value}
        </Text>
        {allowed && (!fav || pinnedByUser.has(key)) && (
          <ActionIcon
            size="sm"
            variant="subtle"
            aria-label={t(fav ? 'detail.unpin' : 'detail.pin')}
            onClick={() => togglePin(key)}
          >
            {fav ? <IconPinnedOff size={14} /> : <IconPin size={14} />}
          </ActionIcon>
        )}
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
          {favourites.map((a) => attributeRow(a, true))}
        </Stack>
      )}

      <Stack gap={2} data-testid="detail-attributes">
        <Text size="sm" fw={700}>
          {t('detail.attributes')}
        </Text>
        <Stack gap={2} data-testid="detail-known">
          {described.known.map((a) => attributeRow(a))}
        </Stack>
        {described.others.length > 0 && (
          <Stack gap={2} data-testid="detail-others">
            <Text size="xs" fw={700} c="dimmed" mt={4}>
              {t('detail.others')}
            </Text>
            {described.others.map((a) => attributeRow(a))}
          </Stack>
        )}
      </Stack>
    </>
  );
}
