// The QR driver's current vehicle: check-out and, when the server allows it, the lock and unlock buttons.
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ext } from '../../api/http.ts';
import { RequestError } from '../../components/RequestError.tsx';

const ENGINE_BUTTONS = [
  ['engineStop', 'red', 'qrDriver.lock', 'qr-lock'],
  ['engineResume', 'green', 'qrDriver.unlock', 'qr-unlock'],
] as const;

export function QrCurrentVehicle({
  name,
  lockButtons,
  checkingOut,
  onCheckOut,
  onNotice,
}: {
  name: string;
  lockButtons: boolean;
  checkingOut: boolean;
  onCheckOut(): void;
  onNotice(text: string): void;
}) {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation('common');
  const engine = useMutation({
    mutationFn: (type: 'engineStop' | 'engineResume') =>
      ext.post<{ queued: boolean }>('/qr-driver/engine', { type }),
    onSuccess: (r, type) =>
      onNotice(
        r.queued
          ? t('qrDriver.queued')
          : t(type === 'engineStop' ? 'qrDriver.lockSent' : 'qrDriver.unlockSent'),
      ),
  });

  return (
    <Card withBorder data-testid="qr-current">
      <Stack gap="xs">
        <Text>{t('qrDriver.driving', { name })}</Text>
        <Button color="orange" onClick={onCheckOut} loading={checkingOut} data-testid="qr-checkout">
          {t('qrDriver.checkOut')}
        </Button>
        {lockButtons && (
          <Group grow>
            {ENGINE_BUTTONS.map(([type, color, label, testId]) => (
              <Button
                key={type}
                color={color}
                variant="light"
                loading={engine.isPending && engine.variables === type}
                onClick={() => engine.mutate(type)}
                data-testid={testId}
              >
                {t(label)}
              </Button>
            ))}
          </Group>
        )}
        <RequestError error={engine.error} fallback={tc('messages.sendError')} testId="qr-engine-error" />
      </Stack>
    </Card>
  );
}
