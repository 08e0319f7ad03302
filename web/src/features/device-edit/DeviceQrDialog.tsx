// Dialog `deviceQr` (props { deviceId }): a QR code a driver scans to check in on the vehicle; it encodes
// <origin>/qr-driver/scan/<deviceId>.
import { Button, Center, Image, Loader, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useTranslation } from 'react-i18next';
import type { DialogProps } from '../../shell/dialogs.ts';
import { useLive } from '../../stores/live.ts';

/** The QR image (data URL) of a device's check-in link. */
export function useQrDataUrl(deviceId: number): { url: string; image: string | null } {
  const url = `${window.location.origin}/qr-driver/scan/${deviceId}`;
  const qr = useQuery({
    queryKey: ['qr', url],
    queryFn: () => QRCode.toDataURL(url, { margin: 1, width: 280, errorCorrectionLevel: 'M' }),
    staleTime: Infinity,
  });
  return { url, image: qr.data ?? null };
}

// deviceId optional: the registry types every dialog of this module by the widest props (deviceEdit's)
export function DeviceQrDialog({ props: { deviceId = 0 }, onClose }: DialogProps<{ deviceId?: number }>) {
  const { t } = useTranslation('deviceEdit');
  const device = useLive((s) => s.devices[deviceId]);
  const { url, image } = useQrDataUrl(deviceId);
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('qrTitle', { name: device?.name ?? '' })}
      data-testid="device-qr-dialog"
    >
      <Stack align="center">
        {/* opened from the device form once the device is saved */}
        {image ? (
          <Image src={image} alt={t('qrAlt')} w={280} h={280} data-testid="device-qr-image" data-url={url} />
        ) : (
          <Center h={280}>
            <Loader />
          </Center>
        )}
        <Text size="xs" c="dimmed" ta="center" data-testid="device-qr-url">
          {url}
        </Text>
        <Text size="sm" ta="center">
          {t('qrHelp')}
        </Text>
        <Button variant="default" onClick={onClose}>
          {t('close')}
        </Button>
      </Stack>
    </Modal>
  );
}
