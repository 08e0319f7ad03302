// /qr-driver and /qr-driver/scan/{id}: the QR driver's own view (check-in on a vehicle). The check-in flow
// (POST /{ns}/qr-driver) is filled in by the driver-QR issue; this page shows who is signed in and the vehicle
// being scanned, and lets the driver leave.
import { Button, Stack, Text } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { logout } from '../../app/sessionActions.ts';
import { useSession } from '../../stores/session.ts';
import { AuthLayout } from './AuthLayout.tsx';

export function QrDriverPage() {
  const { t } = useTranslation('auth');
  const { id } = useParams();
  const user = useSession((s) => s.user);
  return (
    <AuthLayout title={id ? t('qrDriver.scanTitle') : t('qrDriver.title')}>
      <Stack align="center" data-testid="qr-driver">
        <IconQrcode size={48} />
        <Text fw={600}>{user?.name}</Text>
        <Text ta="center" size="sm">
          {id ? t('qrDriver.scanDescription', { id }) : t('qrDriver.description')}
        </Text>
        <Button variant="light" color="red" onClick={() => void logout()} data-testid="driver-logout">
          {t('logout', { ns: 'common' })}
        </Button>
      </Stack>
    </AuthLayout>
  );
}
