// Dialog `deviceEdit` (props { deviceId? }): every field of SPEC §3's device form plus installation data and
// photos, colours, icon, category, group, driver, QR-driver flag, odometer and engine hours (PUT accumulators).
// Validation messages of SPEC §5 come from the domain schema. Save = PUT when the id is > 0, else POST (after the
// device-limit check). The QR code and the printable sheet need the device saved first. The tabs are in
// DeviceEditTabs.tsx, the state and save in useDeviceEditForm.ts.
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { IconLink, IconPrinter, IconQrcode } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { openDialog, type DialogComponentProps } from '../../shell/dialogs.ts';
import { DeviceEditTabs } from './DeviceEditTabs.tsx';
import { useDeviceEditForm, type DeviceEditState } from './useDeviceEditForm.ts';
import { SaveCancel } from '../../components/SaveCancel.tsx';

/** QR code, link objects and the printable sheet (the device saved first), then close and save. */
function DeviceEditButtons({ f, onClose }: { f: DeviceEditState; onClose(): void }) {
  const { t } = useTranslation('deviceEdit');
  const { deviceId } = f;
  const saved = deviceId > 0;
  return (
    <Group justify="space-between">
      <Group gap="xs">
        <Button
          variant="light"
          leftSection={<IconQrcode size={16} />}
          disabled={!saved}
          onClick={() => openDialog('deviceQr', { deviceId })}
          data-testid="device-open-qr"
        >
          {t('qr')}
        </Button>
        <Button
          variant="light"
          leftSection={<IconLink size={16} />}
          disabled={!saved}
          onClick={() => openDialog('linkObjects', { owner: 'device', id: deviceId, name: f.values.name })}
          data-testid="device-link-objects"
        >
          {t('button', { ns: 'linkObjects' })}
        </Button>
        <Button
          variant="light"
          leftSection={<IconPrinter size={16} />}
          onClick={() => {
            if (!saved) f.setFormError('validation.deviceSaveFirst');
            else openDialog('devicePrint', { deviceId });
          }}
          data-testid="device-print"
        >
          {t('print')}
        </Button>
      </Group>
      <SaveCancel
        gap="xs"
        cancel={t('close')}
        onCancel={onClose}
        onSave={() => void f.save()}
        loading={f.busy}
        disabled={!f.canSave}
        cancelTestId="device-cancel"
        saveTestId="device-save"
      />
    </Group>
  );
}

export function DeviceEditDialog({ props: { deviceId = 0 }, onClose }: DialogComponentProps<'deviceEdit'>) {
  const { t } = useTranslation('deviceEdit');
  const f = useDeviceEditForm(deviceId);
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={f.deviceId > 0 ? t('editTitle', { name: f.device?.name ?? '' }) : t('addTitle')}
      data-testid="device-edit-dialog"
    >
      <Stack gap="sm">
        {!f.canSave && (
          <Alert color="yellow" data-testid="device-edit-readonly">
            {t('readonly')}
          </Alert>
        )}
        {f.formError && (
          <Alert color="red" data-testid="device-form-error">
            {f.formError.includes('.') ? t(f.formError, { ns: 'common' }) : t(f.formError)}
          </Alert>
        )}
        <DeviceEditTabs f={f} />
        <DeviceEditButtons f={f} onClose={onClose} />
      </Stack>
    </Modal>
  );
}
