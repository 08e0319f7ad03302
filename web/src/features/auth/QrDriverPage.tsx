// /qr-driver and /qr-driver/scan/{id}: the QR driver's own view (SPEC §2 driver-only routes; docs/qr-driver.md).
//   /qr-driver: the vehicle the driver is on, with check-out and, when the server allows it, the lock and unlock
//   buttons; otherwise scan a vehicle's QR code (the browser's
//   camera where it can read QR codes), type its code, or pick one of the vehicles the driver may take.
//   /qr-driver/scan/{id}: the vehicle, the driver's QR password when its record has one, and check-in.
// GET/POST /{ns}/qr-driver; every rule is the domain's qrCheckinProblem, checked again by the server.
import { Alert, Button, Card, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { qrCheckinProblem, scannedDeviceId, type MessageKey } from '@rastro/domain';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import { useNavigate } from '../../components/navigation.ts';
import { ext } from '../../api/http.ts';
import { logout } from '../../shell/sessionActions.ts';
import { useSession } from '../../stores/session.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { QrPickVehicle } from './QrPickVehicle.tsx';
import { STATE_KEY, type QrState, type QrVehicle } from './qrDriverState.ts';
import { RequestError } from '../../components/RequestError.tsx';

const ENGINE_BUTTONS = [
  ['engineStop', 'red', 'qrDriver.lock', 'qr-lock'],
  ['engineResume', 'green', 'qrDriver.unlock', 'qr-unlock'],
] as const;

export function QrDriverPage() {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation('common');
  const { id } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const user = useSession((s) => s.user);
  const ns = useSession((s) => s.ns);
  const state = useQuery({ queryKey: STATE_KEY, queryFn: () => ext.get<QrState>('/qr-driver') });
  const [password, setPassword] = useState('');
  const [notice, setNotice] = useState<string | null>(null);

  const send = useMutation({
    mutationFn: (body: { id: number; password?: string }) =>
      ext.post<{ deviceId: number | null }>('/qr-driver', body),
    onSuccess: () => qc.invalidateQueries({ queryKey: STATE_KEY }),
  });
  const engine = useMutation({
    mutationFn: (type: 'engineStop' | 'engineResume') =>
      ext.post<{ queued: boolean }>('/qr-driver/engine', { type }),
    onSuccess: (r, type) =>
      setNotice(
        r.queued
          ? t('qrDriver.queued')
          : t(type === 'engineStop' ? 'qrDriver.lockSent' : 'qrDriver.unlockSent'),
      ),
  });

  const data = state.data;
  const scanId = id ? scannedDeviceId(id) : null;
  const vehicle = (vid: number | null) => data?.devices.find((d) => d.id === vid) ?? null;
  const label = (v: QrVehicle | null, vid: number) =>
    v ? (v.plate ? `${v.name} (${v.plate})` : v.name) : t('qrDriver.unknownVehicle', { id: vid });

  // a refusal is shown from send.error
  const checkIn = (e: FormEvent) => {
    e.preventDefault();
    if (!scanId) return;
    send.mutate(
      { id: scanId, ...(password ? { password } : {}) },
      {
        onSuccess: () => {
          setNotice(t('qrDriver.checkedIn', { name: label(vehicle(scanId), scanId) }));
          setPassword('');
          navigate('/qr-driver', { replace: true });
        },
      },
    );
  };
  // the lock and unlock buttons' last answer goes with the vehicle
  const checkOut = () => {
    engine.reset();
    send.mutate({ id: 0 }, { onSuccess: () => setNotice(t('qrDriver.checkedOut')) });
  };

  // What the domain rule says about the scanned vehicle before asking anything (the server says it again).
  const scanned = scanId ? vehicle(scanId) : null;
  const driverId = data?.driver?.id ?? null;
  // the vehicle as the rule reads it; taken by another driver: any driver id but this one's
  const taken = scanned?.takenByOther ? { qrDriverId: (driverId ?? 0) + 1 } : {};
  const device = scanned && { attributes: { [`${ns}.qrDriver`]: scanned.qrEnabled, ...taken } };
  // a code that names no vehicle (/qr-driver/scan/abc) is a vehicle not found, as the server would say
  const problem: MessageKey | null =
    data && id
      ? qrCheckinProblem(
          { enabled: data.enabled, driverId, device, passwordRequired: false, passwordOk: true },
          ns,
        )
      : null;

  return (
    <AuthLayout title={id ? t('qrDriver.scanTitle') : t('qrDriver.title')}>
      <Stack data-testid="qr-driver">
        <Group gap="xs" justify="center">
          <IconQrcode size={28} />
          <Text fw={600}>{user?.name}</Text>
        </Group>
        {data?.driver && (
          <Text size="sm" c="dimmed" ta="center" data-testid="qr-driver-name">
            {data.driver.name}
          </Text>
        )}
        <RequestError error={state.error} fallback={tc('validation.required')} />
        {notice && (
          <Alert color="green" withCloseButton onClose={() => setNotice(null)} data-testid="qr-notice">
            {notice}
          </Alert>
        )}
        <RequestError error={send.error} fallback={tc('validation.required')} testId="qr-error" />
        {data && !data.enabled && (
          <Alert color="yellow" data-testid="qr-disabled">
            {tc('qrDriver.checkinDisabled')}
          </Alert>
        )}

        {data && !id && data.deviceId && (
          <Card withBorder data-testid="qr-current">
            <Stack gap="xs">
              <Text>{t('qrDriver.driving', { name: label(vehicle(data.deviceId), data.deviceId) })}</Text>
              <Button color="orange" onClick={checkOut} loading={send.isPending} data-testid="qr-checkout">
                {t('qrDriver.checkOut')}
              </Button>
              {data.lockButtons && (
                <Group grow>
                  {ENGINE_BUTTONS.map(([type, color, text, testId]) => (
                    <Button
                      key={type}
                      color={color}
                      variant="light"
                      loading={engine.isPending && engine.variables === type}
                      onClick={() => engine.mutate(type)}
                      data-testid={testId}
                    >
                      {t(text)}
                    </Button>
                  ))}
                </Group>
              )}
              <RequestError
                error={engine.error}
                fallback={tc('messages.sendError')}
                testId="qr-engine-error"
              />
            </Stack>
          </Card>
        )}

        {data && !id && !data.deviceId && data.enabled && (
          <QrPickVehicle
            devices={data.devices}
            label={label}
            onGo={(vid) => {
              send.reset();
              navigate(`/qr-driver/scan/${vid}`);
            }}
          />
        )}

        {data && id && (
          <form onSubmit={checkIn}>
            <Stack gap="sm" data-testid="qr-scan-form">
              {problem ? (
                <Alert color="red" data-testid="qr-problem">
                  {tc(problem)}
                </Alert>
              ) : (
                <>
                  <Text ta="center">
                    {t('qrDriver.scanDescription', { name: label(scanned, scanId ?? 0) })}
                  </Text>
                  {data.driver?.passwordRequired && (
                    <PasswordInput
                      label={t('qrDriver.password')}
                      value={password}
                      onChange={(e) => setPassword(e.currentTarget.value)}
                      autoComplete="current-password"
                      data-testid="qr-password"
                    />
                  )}
                  <Button type="submit" loading={send.isPending} data-testid="qr-checkin">
                    {t('qrDriver.checkIn')}
                  </Button>
                </>
              )}
              <Button variant="subtle" onClick={() => navigate('/qr-driver')}>
                {t('qrDriver.back')}
              </Button>
            </Stack>
          </form>
        )}

        <Button variant="light" color="red" onClick={() => void logout()} data-testid="driver-logout">
          {t('logout', { ns: 'common' })}
        </Button>
      </Stack>
    </AuthLayout>
  );
}
