// Dialog `devicePrint` (props { deviceId }): the printable device sheet (SPEC §5: needs the device saved first).
// window.print() prints only the sheet (print CSS hides the rest of the page).
import { Button, Group, Image, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { DialogProps } from '../../shell/dialogs.ts';
import { useSession } from '../../stores/session.ts';
import { INSTALLATION_FIELDS, TEXT_FIELDS, deviceToForm } from './deviceForm.ts';
import { useQrDataUrl } from './DeviceQrDialog.tsx';
import { useEditedDevice } from './useDeviceEditForm.ts';

const PRINT_CSS = `@media print {
  body * { visibility: hidden !important; }
  .rastro-print-sheet, .rastro-print-sheet * { visibility: visible !important; }
  .rastro-print-sheet { position: absolute; left: 0; top: 0; width: 100%; }
  .rastro-no-print { display: none !important; }
}`;

/** Label and value rows (the installation's address and observation keep their line breaks). */
function SheetTable({ rows, testId }: { rows: string[][]; testId?: string }) {
  return (
    <Table withTableBorder fz="sm" data-testid={testId}>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Td fw={600} w="40%">
              {label}
            </Table.Td>
            <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function DeviceSheet({ props: { deviceId = 0 }, onClose }: DialogProps<{ deviceId?: number }>) {
  const { t, i18n } = useTranslation('deviceEdit');
  const { device, position } = useEditedDevice(deviceId);
  const ns = useSession((s) => s.ns);
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
        <SheetTable
          rows={[...rows, [t('fields.qrDriver'), f.qrDriver ? t('yes') : t('no')]]}
          testId="device-sheet-table"
        />
        {inst.length > 0 && (
          <>
            <Title order={5}>{t('tabs.installation')}</Title>
            <SheetTable rows={inst} />
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
