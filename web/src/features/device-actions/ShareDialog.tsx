// Share a device (SPEC §2 device detail "share"): POST /api/share/device {deviceId, expiration} returns a token;
// the expiring link <origin>/share/<token> is shown with a copy button.
import { Alert, Button, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api } from '../../api/http.ts';
import type { DialogComponentProps } from '../../app/dialogs.ts';
import { useLive } from '../../stores/live.ts';

const props = z.object({ deviceId: z.number().int().positive() });

/** Default expiry: one day from now, as a datetime-local value. */
function defaultExpiry(now = Date.now()): string {
  const d = new Date(now + 24 * 3600 * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function ShareDialog({ props: raw, onClose }: DialogComponentProps) {
  const { t, i18n } = useTranslation('actions');
  const parsed = props.safeParse(raw);
  const deviceId = parsed.success ? parsed.data.deviceId : 0;
  const device = useLive((s) => s.devices[deviceId]);
  const [expiry, setExpiry] = useState(defaultExpiry);
  const [link, setLink] = useState<string | null>(null);
  const [error, setError] = useState(false);
  const [busy, setBusy] = useState(false);

  const expiryDate = new Date(expiry);
  const validExpiry = !Number.isNaN(expiryDate.getTime()) && expiryDate.getTime() > Date.now();

  const create = async () => {
    if (!validExpiry || busy) return;
    setBusy(true);
    setError(false);
    try {
      const token = await api.postForm<string>('/share/device', {
        deviceId,
        expiration: expiryDate.toISOString(),
      });
      setLink(`${window.location.origin}/share/${encodeURIComponent(String(token).trim())}`);
    } catch (err) {
      console.warn('share failed', err);
      setError(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('share.title', { name: device?.name ?? '' })}
      data-testid="share-dialog"
    >
      <Stack>
        <TextInput
          type="datetime-local"
          label={t('share.expiration')}
          value={expiry}
          onChange={(e) => setExpiry(e.currentTarget.value)}
          error={validExpiry ? undefined : t('share.error')}
          data-testid="share-expiration"
        />
        <Button
          onClick={() => void create()}
          loading={busy}
          disabled={!validExpiry || !deviceId}
          data-testid="share-create"
        >
          {t('share.create')}
        </Button>
        {error && (
          <Alert color="red" data-testid="share-error">
            {t('share.error')}
          </Alert>
        )}
        {link && (
          <Stack gap={4}>
            <TextInput label={t('share.link')} value={link} readOnly data-testid="share-link" />
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                {t('share.expires', { date: expiryDate.toLocaleString(i18n.language) })}
              </Text>
              <CopyButton value={link}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy} data-testid="share-copy">
                    {copied ? t('share.copied') : t('share.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}
