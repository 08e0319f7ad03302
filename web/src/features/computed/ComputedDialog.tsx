// Create or edit one computed attribute (SPEC §3): description, attribute key, output type, priority and the
// expression (monospace editor), a "test" against a chosen device's latest position, and the devices and groups
// it is linked to (POST/DELETE /api/permissions {deviceId|groupId, attributeId}). Administrators only. The
// sections are in ComputedSections.tsx, the state, test and save in useComputedForm.ts.
import { Modal, Stack } from '@mantine/core';
import type { ComputedFormValues } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { ComputedFields, ComputedLinks, ComputedTestPanel } from './ComputedSections.tsx';
import { useComputedForm } from './useComputedForm.ts';
import { SaveCancel } from '../../components/SaveCancel.tsx';

interface Props {
  initial: ComputedFormValues;
  onClose(): void;
}

export function ComputedDialog({ initial, onClose }: Props) {
  const { t } = useTranslation('computed');
  const s = useComputedForm(initial, onClose);
  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={s.value.id > 0 ? t('editTitle') : t('addTitle')}
      data-testid="computed-form"
    >
      <Stack gap="sm">
        <ComputedFields s={s} />
        <ComputedTestPanel s={s} />
        <ComputedLinks s={s} />
        <SaveCancel
          onCancel={onClose}
          onSave={() => void s.submit()}
          loading={s.busy}
          disabled={!s.links.linked}
          saveTestId="computed-save"
        />
      </Stack>
    </Modal>
  );
}
