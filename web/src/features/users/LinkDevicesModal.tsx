// "Link devices" for one user: a checkbox list of the caller's devices; each tick is POST /api/permissions
// {userId, deviceId}, each untick DELETE /api/permissions with the same body (CONTRACT §5 permissions).
import { Checkbox, ScrollArea, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isAdmin, type Device, type User } from '@rastro/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, serverDetail } from '../../api/http.ts';
import { resourceKeys } from '../../api/resources.ts';
import { DialogFrame } from '../../components/DialogFrame.tsx';
import { SearchInput } from '../../components/SearchInput.tsx';
import { useSession } from '../../stores/session.ts';

export function LinkDevicesModal({ target, onClose }: { target: User; onClose(): void }) {
  const { t } = useTranslation('users');
  const callerIsAdmin = useSession((s) => isAdmin(s.user));
  const qc = useQueryClient();
  const [search, setSearch] = useState('');
  const mine = useQuery({
    queryKey: ['users', 'linkable-devices', callerIsAdmin],
    queryFn: () => api.get<Device[]>('/devices', callerIsAdmin ? { all: true } : undefined),
  });
  const linkedKey = ['users', 'linked-devices', target.id];
  const linked = useQuery({
    queryKey: linkedKey,
    queryFn: () => api.get<Device[]>('/devices', { userId: target.id }),
  });
  const linkedIds = new Set((linked.data ?? []).map((d) => d.id));
  const q = search.trim().toLowerCase();
  const devices = (mine.data ?? []).filter(
    (d) => !q || d.name.toLowerCase().includes(q) || d.uniqueId.toLowerCase().includes(q),
  );

  const toggle = useMutation({
    mutationFn: async ({ device, on }: { device: Device; on: boolean }) => {
      const body = { userId: target.id, deviceId: device.id };
      await api.request(on ? 'POST' : 'DELETE', '/permissions', { body });
      await qc.invalidateQueries({ queryKey: linkedKey });
      await qc.invalidateQueries({ queryKey: resourceKeys.all('devices') });
    },
    onError: (e) => {
      console.warn('permission not changed', e);
      notifications.show({ color: 'red', message: `${t('link.error')}${serverDetail(e)}` });
    },
  });

  return (
    <DialogFrame
      onClose={onClose}
      title={t('link.title', { name: target.name })}
      testId="user-link-devices"
      error={(mine.isError || linked.isError) && t('loadError')}
      loading={!mine.data || !linked.data}
    >
      <Stack gap="xs">
        <Text size="xs" c="dimmed">
          {t('link.help')}
        </Text>
        <SearchInput label={t('link.search')} value={search} onSearch={setSearch} testId="user-link-search" />
        <ScrollArea.Autosize mah={400}>
          <Stack gap={6}>
            {devices.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('link.none')}
              </Text>
            )}
            {devices.map((d) => (
              <Checkbox
                key={d.id}
                label={`${d.name} (${d.uniqueId})`}
                checked={linkedIds.has(d.id)}
                disabled={toggle.isPending}
                onChange={(e) => toggle.mutate({ device: d, on: e.currentTarget.checked })}
                data-testid="user-link-device"
                data-device-id={d.id}
                data-device-name={d.name}
              />
            ))}
          </Stack>
        </ScrollArea.Autosize>
        <Text size="xs" c="dimmed" data-testid="user-link-count">
          {t('link.count', { count: linkedIds.size })}
        </Text>
      </Stack>
    </DialogFrame>
  );
}
