// The QR driver on no vehicle: scan a vehicle's QR code with the camera, type its code, or pick one of the
// vehicles the driver may take.
import { Alert, Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';
import { scannedDeviceId } from '@rastro/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CameraScanner, detectorCtor } from './CameraScanner.tsx';
import type { QrVehicle } from './qrDriverState.ts';

export function QrPickVehicle({
  devices,
  label,
  onGo,
}: {
  devices: QrVehicle[];
  label(v: QrVehicle, id: number): string;
  onGo(id: number): void;
}) {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation('common');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [scanning, setScanning] = useState(false);
  const [cameraProblem, setCameraProblem] = useState<string | null>(null);

  const goTo = (raw: string) => {
    const vid = scannedDeviceId(raw);
    if (!vid) return setCodeError(tc('qrDriver.deviceRequired'));
    setCodeError(null);
    setScanning(false);
    onGo(vid);
  };
  const available = devices.filter((d) => d.qrEnabled);
  return (
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
              setCameraProblem(detectorCtor() ? t('qrDriver.cameraError') : t('qrDriver.cameraUnavailable'));
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
      {available.length > 0 && (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('qrDriver.available')}
          </Text>
          {available.map((d) => (
            <Button
              key={d.id}
              variant="default"
              justify="space-between"
              disabled={d.takenByOther}
              rightSection={d.takenByOther ? <Badge color="gray">{t('qrDriver.taken')}</Badge> : null}
              onClick={() => onGo(d.id)}
              data-testid={`qr-vehicle-${d.id}`}
            >
              {label(d, d.id)}
            </Button>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
