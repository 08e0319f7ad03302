// /qr-driver and /qr-driver/scan/{id}: the QR driver's own view (SPEC §2 driver-only routes; docs/qr-driver.md).
//   /qr-driver: the vehicle the driver is on, with check-out; otherwise scan a vehicle's QR code (the browser's
//   camera where it can read QR codes), type its code, or pick one of the vehicles the driver may take.
//   /qr-driver/scan/{id}: the vehicle, the driver's QR password when its record has one, and check-in.
// GET/POST /{ns}/qr-driver; every rule is the domain's qrCheckinProblem, checked again by the server.
import { Alert, Badge, Button, Card, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconCamera, IconQrcode } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { qrCheckinProblem, scannedDeviceId, type MessageKey } from '@rastro/domain';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import { useNavigate } from '../../components/navigation.ts';
import { ext, serverMessage } from '../../api/http.ts';
import { logout } from '../../shell/sessionActions.ts';
import { useSession } from '../../stores/session.ts';
import { AuthLayout } from './AuthLayout.tsx';

interface QrVehicle {
  id: number;
  name: string;
  plate: string | null;
  qrEnabled: boolean;
  takenByOther: boolean;
}

interface QrState {
  enabled: boolean;
  /** Server setting "lock and unlock buttons". */
  lockButtons: boolean;
  driver: { id: number; name: string; uniqueId: string; passwordRequired: boolean } | null;
  deviceId: number | null;
  devices: QrVehicle[];
}

const STATE_KEY = ['qr-driver'] as const;

/** Minimal typing of the browser's BarcodeDetector (Chromium on Android, ChromeOS, macOS). */
interface Detector {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>>;
}
type DetectorCtor = new (options: { formats: string[] }) => Detector;
const detectorCtor = (): DetectorCtor | null =>
  (globalThis as { BarcodeDetector?: DetectorCtor }).BarcodeDetector ?? null;

/** The camera preview that reports the first QR code it reads. */
function CameraScanner({ onCode, onError }: { onCode(code: string): void; onError(): void }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    let stream: MediaStream | null = null;
    let stopped = false;
    const Ctor = detectorCtor();
    if (!Ctor || !navigator.mediaDevices?.getUserMedia) {
      onError();
      return;
    }
    const detector = new Ctor({ formats: ['qr_code'] });
    const tick = async () => {
      if (stopped || !video.current) return;
      try {
        const found = await detector.detect(video.current);
        if (found[0]?.rawValue) return onCode(found[0].rawValue);
      } catch {
        /* frame not ready */
      }
      setTimeout(() => void tick(), 250);
    };
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' } })
      .then((s) => {
        stream = s;
        if (stopped || !video.current) return;
        video.current.srcObject = s;
        void video.current.play().then(tick);
      })
      .catch(onError);
    return () => {
      stopped = true;
      stream?.getTracks().forEach((tr) => tr.stop());
    };
  }, [onCode, onError]);
  return <video ref={video} muted playsInline style={{ width: '100%', borderRadius: 8 }} />;
}

export function QrDriverPage() {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation('common');
  const { id } = useParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const user = useSession((s) => s.user);
  const ns = useSession((s) => s.ns);
  const state = useQuery({ queryKey: STATE_KEY, queryFn: () => ext.get<QrState>('/qr-driver') });
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [scanning, setScanning] = useState(false);
  const [cameraProblem, setCameraProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const send = useMutation({
    mutationFn: (body: { id: number; password?: string }) =>
      ext.post<{ deviceId: number | null }>('/qr-driver', body),
    onSuccess: () => qc.invalidateQueries({ queryKey: STATE_KEY }),
  });

  const data = state.data;
  const scanId = id ? scannedDeviceId(id) : null;
  const vehicle = (vid: number | null) => data?.devices.find((d) => d.id === vid) ?? null;
  const label = (v: QrVehicle | null, vid: number) =>
    v ? (v.plate ? `${v.name} (${v.plate})` : v.name) : t('qrDriver.unknownVehicle', { id: vid });

  const goTo = (raw: string) => {
    const vid = scannedDeviceId(raw);
    if (!vid) return setCodeError(tc('qrDriver.deviceRequired'));
    setCodeError(null);
    setScanning(false);
    send.reset();
    navigate(`/qr-driver/scan/${vid}`);
  };

  const checkIn = async (e: FormEvent) => {
    e.preventDefault();
    if (!scanId) return;
    try {
      await send.mutateAsync({ id: scanId, ...(password ? { password } : {}) });
      setNotice(t('qrDriver.checkedIn', { name: label(vehicle(scanId), scanId) }));
      setPassword('');
      navigate('/qr-driver', { replace: true });
    } catch {
      /* shown from send.error */
    }
  };

  const checkOut = async () => {
    try {
      await send.mutateAsync({ id: 0 });
      setNotice(t('qrDriver.checkedOut'));
    } catch {
      /* shown from send.error */
    }
  };

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

  const sendError = send.error ? (serverMessage(send.error) ?? tc('validation.required')) : null;

  // What the domain rule says about the scanned vehicle before asking anything (the server says it again).
  const scanned = scanId ? vehicle(scanId) : null;
  const problem: MessageKey | null =
    data && scanId
      ? qrCheckinProblem(
          {
            enabled: data.enabled,
            driverId: data.driver?.id ?? null,
            device: scanned
              ? {
                  attributes: {
                    [`${ns}.qrDriver`]: scanned.qrEnabled,
                    // another driver's id: any id but this driver's
                    ...(scanned.takenByOther ? { qrDriverId: (data.driver?.id ?? 0) + 1 } : {}),
                  },
                }
              : null,
            passwordRequired: false,
            passwordOk: true,
          },
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
        {state.isError && (
          <Alert color="red">{serverMessage(state.error) ?? tc('validation.required')}</Alert>
        )}
        {notice && (
          <Alert color="green" withCloseButton onClose={() => setNotice(null)} data-testid="qr-notice">
            {notice}
          </Alert>
        )}
        {sendError && (
          <Alert color="red" data-testid="qr-error">
            {sendError}
          </Alert>
        )}
        {data && !data.enabled && (
          <Alert color="yellow" data-testid="qr-disabled">
            {tc('qrDriver.checkinDisabled')}
          </Alert>
        )}

        {data && !id && data.deviceId && (
          <Card withBorder data-testid="qr-current">
            <Stack gap="xs">
              <Text>{t('qrDriver.driving', { name: label(vehicle(data.deviceId), data.deviceId) })}</Text>
              <Button
                color="orange"
                onClick={() => void checkOut()}
                loading={send.isPending}
                data-testid="qr-checkout"
              >
                {t('qrDriver.checkOut')}
              </Button>
              {data.lockButtons && (
                <Group grow>
                  <Button
                    color="red"
                    variant="light"
                    loading={engine.isPending && engine.variables === 'engineStop'}
                    onClick={() => engine.mutate('engineStop')}
                    data-testid="qr-lock"
                  >
                    {t('qrDriver.lock')}
                  </Button>
                  <Button
                    color="green"
                    variant="light"
                    loading={engine.isPending && engine.variables === 'engineResume'}
                    onClick={() => engine.mutate('engineResume')}
                    data-testid="qr-unlock"
                  >
                    {t('qrDriver.unlock')}
                  </Button>
                </Group>
              )}
              {engine.error && (
                <Alert color="red" data-testid="qr-engine-error">
                  {serverMessage(engine.error) ?? tc('messages.sendError')}
                </Alert>
              )}
            </Stack>
          </Card>
        )}

        {data && !id && !data.deviceId && data.enabled && (
          <Stack gap="sm">
            <Text size="sm" ta="center" c="dimmed" data-testid="qr-not-driving">
              {t('qrDriver.notDriving')} {t('qrDriver.description')}
            </Text>
            {scanning ? (
              <Stack gap="xs">
                <CameraScanner
                  onCode={goTo}
                  onError={() => {
                    setScanning(false);
                    setCameraProblem(
                      detectorCtor() ? t('qrDriver.cameraError') : t('qrDriver.cameraUnavailable'),
                    );
                  }}
                />
                <Button variant="default" onClick={() => setScanning(false)}>
                  {t('qrDriver.stopScan')}
                </Button>
              </Stack>
            ) : (
              <Button
                leftSection={<IconCamera size={16} />}
                onClick={() => {
                  setCameraProblem(null);
                  if (!detectorCtor()) setCameraProblem(t('qrDriver.cameraUnavailable'));
                  else setScanning(true);
                }}
                data-testid="qr-scan"
              >
                {t('qrDriver.scan')}
              </Button>
            )}
            {cameraProblem && (
              <Alert color="yellow" data-testid="qr-camera-problem">
                {cameraProblem}
              </Alert>
            )}
            <form
              onSubmit={(e) => {
                e.preventDefault();
                goTo(code);
              }}
            >
              <Group align="flex-end" wrap="nowrap">
                <TextInput
                  style={{ flex: 1 }}
                  label={t('qrDriver.code')}
                  description={t('qrDriver.codeHint')}
                  value={code}
                  onChange={(e) => setCode(e.currentTarget.value)}
                  error={codeError}
                  data-testid="qr-code"
                />
                <Button type="submit" variant="light" data-testid="qr-code-go">
                  {t('qrDriver.continue')}
                </Button>
              </Group>
            </form>
            {data.devices.some((d) => d.qrEnabled) && (
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {t('qrDriver.available')}
                </Text>
                {data.devices
                  .filter((d) => d.qrEnabled)
                  .map((d) => (
                    <Button
                      key={d.id}
                      variant="default"
                      justify="space-between"
                      disabled={d.takenByOther}
                      rightSection={d.takenByOther ? <Badge color="gray">{t('qrDriver.taken')}</Badge> : null}
                      onClick={() => navigate(`/qr-driver/scan/${d.id}`)}
                      data-testid={`qr-vehicle-${d.id}`}
                    >
                      {label(d, d.id)}
                    </Button>
                  ))}
              </Stack>
            )}
          </Stack>
        )}

        {data && id && (
          <form onSubmit={(e) => void checkIn(e)}>
            <Stack gap="sm" data-testid="qr-scan-form">
              <Text ta="center">{t('qrDriver.scanDescription', { name: label(scanned, scanId ?? 0) })}</Text>
              {problem ? (
                <Alert color="red" data-testid="qr-problem">
                  {tc(problem)}
                </Alert>
              ) : (
                <>
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
