// Dialog `devicePrint` (props { deviceId }): the printable device sheet (SPEC §5: needs the device saved first).
// window.print() prints only the sheet (print CSS hides the rest of the page).
import { Button, Group, Image, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type Device } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api } from '../../api/http.ts';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { useLive } from '../../stores/live.ts';
import { useSession } from '../../stores/session.ts';
import { INSTALLATION_FIELDS, TEXT_FIELDS, deviceToForm } from './deviceForm.ts';
import { useQrDataUrl } from './DeviceQrDialog.tsx';

const propsSchema = z.object({ deviceId: z.number().int().positive() });

const PRINT_CSS = `@media print {
  body * { visibility: hidden !important; }
  .rastro-print-sheet, .rastro-print-sheet * { visibility: visible !important; }
  .rastro-print-sheet { position: absolute; left: 0; top: 0; width: 100%; }
  .rastro-no-print { display: none !important; }
}`;

export function DeviceSheet({ props, onClose }: DialogComponentProps) {
  const { t, i18n } = useTranslation('deviceEdit');
  const parsed = propsSchema.safeParse(props);
  const deviceId = parsed.success ? parsed.data.deviceId : 0;
  const live = useLive((s) => s.devices[deviceId]);
  const position = useLive((s) => s.positions[deviceId]);
  const ns = useSession((s) => s.ns);
  const fetched = useQuery({
    queryKey: ['resource', 'devices', 'item', deviceId],
    queryFn: () => api.get<Device>(`/devices/${deviceId}`),
    enabled: deviceId > 0 && !live,
  });
  const device = live ?? fetched.data;
  const { image } = useQrDataUrl(deviceId);
  if (!device) {
    return (
      <Modal opened onClose={onClose} title={t('sheetTitle')} data-testid="device-sheet">
        <Text c="red">{t('validation.deviceSaveFirst', { ns: 'common' })}</Text>
      </Modal>
    );
  }
  const f = deviceToForm(device, position, ns);
  const rows = TEXT_FIELDS.filter((k) => f[k] !== '' && k !== 'groupId').map((k) => [t(`fields.${k}`), f[k]]);
  const inst = INSTALLATION_FIELDS.filter((k) => f.installation[k] !== '').map((k) => [
    t(`installation.${k}`),
    f.installation[k],
  ]);
  return (
    <Modal opened onClose={onClose} size="lg" title={t('sheetTitle')} data-testid="device-sheet">
      <style>{PRINT_CSS}</style>
      <Stack className="rastro-print-sheet">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={3}>{device.name}</Title>
            <Text size="sm" c="dimmed">
              {t('printedAt', { date: new Date().toLocaleString(i18n.language) })}
            </Text>
          </div>
          {image && <Image src={image} alt={t('qrAlt')} w={120} h={120} />}
        </Group>
        <Table withTableBorder fz="sm" data-testid="device-sheet-table">
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Td fw={600} w="40%">
                  {label}
                </Table.Td>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
            <Table.Tr>
              <Table.Td fw={600}>{t('fields.qrDriver')}</Table.Td>
              <Table.Td>{f.qrDriver ? t('yes') : t('no')}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        {inst.length > 0 && (
          <>
            <Title order={5}>{t('tabs.installation')}</Title>
            <Table withTableBorder fz="sm">
              <Table.Tbody>
                {inst.map(([label, value]) => (
                  <Table.Tr key={label}>
                    <Table.Td fw={600} w="40%">
                      {label}
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{value}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </>
        )}
        <Group justify="flex-end" className="rastro-no-print">
          <Button variant="default" onClick={onClose} data-testid="device-sheet-close">
            {t('close')}
          </Button>
          <Button
            leftSection={<IconPrinter size={16} />}
            onClick={() => window.print()}
            data-testid="device-sheet-print"
          >
            {t('print')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
