// Create or edit one computed attribute (SPEC §3): description, attribute key, output type, priority and the
// expression (monospace editor), a "test" against a chosen device's latest position, and the devices and groups
// it is linked to (POST/DELETE /api/permissions {deviceId|groupId, attributeId}). Administrators only. The
// state, test and save are in useComputedForm.ts.
import {
  Alert,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { COMPUTED_TYPES, KNOT_TO_KMH, type ComputedFormValues } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { choiceBinder, fieldBinder } from '../../components/boundField.ts';
import { SaveCancel } from '../../components/SaveCancel.tsx';
import { useComputedForm, type ComputedFormState } from './useComputedForm.ts';

const MONO = { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 };

/** Description, attribute key, output type, priority and the expression (monospace). */
function ComputedFields({ s }: { s: ComputedFormState }) {
  const { t } = useTranslation('computed');
  const { value, set, err } = s;
  const bound = { t, values: value, set, err };
  const field = fieldBinder(bound, 'computed');
  const typeOptions = COMPUTED_TYPES.map((type) => ({ value: type, label: t(`types.${type}`) }));
  return (
    <>
      <TextInput {...field('description')} />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput {...field('attribute')} description={t('hints.attribute')} styles={{ input: MONO }} />
        <Select {...choiceBinder(bound, 'computed')('type')} data={typeOptions} allowDeselect={false} />
        <TextInput {...field('priority')} description={t('hints.priority')} inputMode="numeric" />
      </SimpleGrid>
      <Textarea
        {...field('expression')}
        description={
          <>
            {t('hints.expression')} <Code>speed * {KNOT_TO_KMH}</Code>{' '}
            <Code>ignition ? &quot;on&quot; : &quot;off&quot;</Code>
          </>
        }
        autosize
        minRows={4}
        maxRows={14}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        styles={{ input: MONO }}
      />
    </>
  );
}

/** The expression tried on a chosen device's latest position: its value, null, or the error. */
function ComputedTestPanel({ s }: { s: ComputedFormState }) {
  const { t } = useTranslation('computed');
  const { test, err } = s;
  const { result } = test;
  return (
    <Stack gap={6} p="sm" bg="var(--mantine-color-gray-light)" style={{ borderRadius: 8 }}>
      <Text size="sm" fw={600}>
        {t('test.title')}
      </Text>
      <Group align="flex-end" wrap="nowrap">
        <Select
          style={{ flex: 1 }}
          label={t('test.device')}
          placeholder={t('test.devicePlaceholder')}
          data={s.deviceOptions}
          value={test.device}
          onChange={test.pick}
          searchable
          limit={100}
          nothingFoundMessage={t('test.noDevices')}
          error={err('testDevice')}
          data-testid="computed-test-device"
        />
        <Button
          variant="light"
          leftSection={<IconFlask size={16} />}
          onClick={test.run}
          loading={test.running}
          data-testid="computed-test"
        >
          {t('test.run')}
        </Button>
      </Group>
      {result?.kind === 'value' && (
        <Alert color="green" p="xs" data-testid="computed-test-result" data-kind={typeof result.value}>
          {t('test.value')} <Code data-testid="computed-test-value">{String(result.value)}</Code>
        </Alert>
      )}
      {result?.kind === 'null' && (
        <Alert color="gray" p="xs" data-testid="computed-test-result" data-kind="null">
          {t('test.null')}
        </Alert>
      )}
      {result?.kind === 'error' && (
        <Alert color="red" p="xs" title={t('test.error')} data-testid="computed-test-error">
          <Text size="sm" style={MONO}>
            {result.message}
          </Text>
        </Alert>
      )}
    </Stack>
  );
}

/** The devices and groups the attribute applies to (a loader while an existing one's links load). */
function ComputedLinks({ s }: { s: ComputedFormState }) {
  const { t } = useTranslation('computed');
  const { links } = s;
  if (!links.linked)
    return (
      <Group gap="xs">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          {t('linksLoading')}
        </Text>
      </Group>
    );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <MultiSelect
        label={t('fields.devices')}
        data={s.deviceOptions}
        value={links.wantDevices}
        onChange={links.setWantDevices}
        searchable
        clearable
        limit={100}
        data-testid="computed-devices"
      />
      <MultiSelect
        label={t('fields.groups')}
        data={s.groupOptions}
        value={links.wantGroups}
        onChange={links.setWantGroups}
        searchable
        clearable
        data-testid="computed-groups"
      />
    </SimpleGrid>
  );
}

export function ComputedDialog({ initial, onClose }: { initial: ComputedFormValues; onClose(): void }) {
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
