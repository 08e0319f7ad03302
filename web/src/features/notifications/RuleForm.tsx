// The notification rule form (SPEC §3 Notification rule, §5, §9): type from GET /api/notifications/types, alarms
// when the type is alarm, channels from GET /api/notifications/notificators, "all devices", calendar, the saved
// command of the command channel, colour (previewed), sound (played from the real file), pin and position; the
// events variant picks devices and needs a calendar. Test = POST /api/notifications/test/web. The sections are in
// RuleFormSections.tsx, the state, test-send and save in useRuleForm.ts.
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { RuleLookSection, RuleScopeSection, RuleTriggerSection } from './RuleFormSections.tsx';
import { useRuleForm, type RuleFormOptions } from './useRuleForm.ts';
import { SaveCancel } from '../../components/SaveCancel.tsx';

export function RuleForm(props: RuleFormOptions) {
  const { t } = useTranslation('notifications');
  const s = useRuleForm(props);
  const { variant, form, testResult } = s;
  const { onClose } = props;
  const title =
    variant === 'events'
      ? t(form.id > 0 ? 'eventEditTitle' : 'eventAddTitle')
      : t(form.id > 0 ? 'editTitle' : 'addTitle');

  return (
    <Modal opened onClose={onClose} title={title} size="lg" data-testid="rule-form">
      <Stack gap="xs">
        <RuleTriggerSection s={s} />
        <RuleScopeSection s={s} />
        <RuleLookSection s={s} />
        {testResult && (
          <Alert color={testResult.ok ? 'green' : 'red'} data-testid="rule-test-result">
            {testResult.text}
          </Alert>
        )}
        <Group justify="space-between" mt="xs">
          <Button variant="light" onClick={() => void s.runTest()} data-testid="rule-test">
            {t('test')}
          </Button>
          <SaveCancel
            gap="xs"
            onCancel={onClose}
            onSave={() => void s.submit()}
            loading={s.busy}
            saveTestId="rule-save"
          />
        </Group>
      </Stack>
    </Modal>
  );
}
