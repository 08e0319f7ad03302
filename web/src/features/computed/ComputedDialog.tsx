// Create or edit one computed attribute (SPEC §3): description, attribute key, output type, priority and the
// expression (monospace editor), a "test" against a chosen device's latest position, and the devices and groups
// it is linked to (POST/DELETE /api/permissions {deviceId|groupId, attributeId}). Administrators only.
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
import { notifications } from '@mantine/notifications';
import { IconFlask } from '@tabler/icons-react';
import {
  COMPUTED_TYPES,
  KNOT_TO_KMH,
  parseComputedForm,
  type ComputedFormValues,
  type ComputedTestResult,
  type ComputedType,
} from '@rastro/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { resourceKeys, useResourceList, useSaveResource } from '../../api/resources.ts';
import { loadLinks, saveLinks, testComputed } from './api.ts';
import { refusalMessage } from '../../api/http.ts';

interface Props {
  initial: ComputedFormValues;
  onClose(): void;
}

const MONO = { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 };

export function ComputedDialog({ initial, onClose }: Props) {
  const { t } = useTranslation('computed');
  const qc = useQueryClient();
  const save = useSaveResource('attributes/computed');
  const devices = useResourceList('devices');
  const groups = useResourceList('groups');
  const [value, setValue] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [testDevice, setTestDevice] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<ComputedTestResult | null>(null);
  const [linked, setLinked] = useState<{ device: number[]; group: number[] } | null>(
    initial.id > 0 ? null : { device: [], group: [] },
  );
  const [wantDevices, setWantDevices] = useState<string[]>([]);
  const [wantGroups, setWantGroups] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (initial.id <= 0) return;
    let live = true;
    Promise.all([loadLinks('device', initial.id), loadLinks('group', initial.id)])
      .then(([device, group]) => {
        if (!live) return;
        setLinked({ device, group });
        setWantDevices(device.map(String));
        setWantGroups(group.map(String));
      })
      .catch((err: unknown) => {
        console.warn('links not loaded', err);
        if (live) setLinked({ device: [], group: [] });
      });
    return () => {
      live = false;
    };
  }, [initial.id]);

  const deviceOptions = useMemo(
    () =>
      (devices.data ?? [])
        .map((d) => ({ value: String(d.id), label: d.name }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [devices.data],
  );
  const groupOptions = useMemo(
    () => (groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name })),
    [groups.data],
  );
  const typeOptions = COMPUTED_TYPES.map((type) => ({ value: type, label: t(`types.${type}`) }));

  const set = <K extends keyof ComputedFormValues>(key: K, v: ComputedFormValues[K]) => {
    setValue((prev) => ({ ...prev, [key]: v }));
    setResult(null);
  };
  const err = (key: string) => (errors[key] ? t(errors[key]) : undefined);

  const runTest = async () => {
    if (!testDevice) {
      setErrors((e) => ({ ...e, testDevice: 'validation.deviceRequired' }));
      return;
    }
    // The test needs only the expression and the type; description and key may still be empty.
    const r = parseComputedForm({
      ...value,
      description: value.description.trim() || 'test',
      attribute: value.attribute.trim() || 'test',
    });
    if (!r.ok) {
      setErrors(r.errors);
      return;
    }
    setErrors({});
    setTesting(true);
    try {
      setResult(await testComputed(r.attribute, Number(testDevice)));
    } catch (e) {
      setResult({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
    } finally {
      setTesting(false);
    }
  };

  const submit = async () => {
    const r = parseComputedForm(value);
    if (!r.ok) {
      setErrors(r.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const saved = await save.mutateAsync(r.attribute);
      if (linked) {
        await saveLinks('device', saved.id, linked.device, wantDevices.map(Number));
        await saveLinks('group', saved.id, linked.group, wantGroups.map(Number));
      }
      await qc.invalidateQueries({ queryKey: resourceKeys.all('attributes/computed') });
      notifications.show({ color: 'green', message: t('saved') });
      onClose();
    } catch (e) {
      console.warn('computed attribute not saved', e);
      notifications.show({ color: 'red', message: refusalMessage(e) ?? t('saveError') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={value.id > 0 ? t('editTitle') : t('addTitle')}
      data-testid="computed-form"
    >
      <Stack gap="sm">
        <TextInput
          label={t('fields.description')}
          value={value.description}
          onChange={(e) => set('description', e.currentTarget.value)}
          error={err('description')}
          data-testid="computed-description"
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label={t('fields.attribute')}
            description={t('hints.attribute')}
            value={value.attribute}
            onChange={(e) => set('attribute', e.currentTarget.value)}
            error={err('attribute')}
            styles={{ input: MONO }}
            data-testid="computed-attribute"
          />
          <Select
            label={t('fields.type')}
            data={typeOptions}
            value={value.type}
            onChange={(v) => v && set('type', v as ComputedType)}
            allowDeselect={false}
            error={err('type')}
            data-testid="computed-type"
          />
          <TextInput
            label={t('fields.priority')}
            description={t('hints.priority')}
            inputMode="numeric"
            value={value.priority}
            onChange={(e) => set('priority', e.currentTarget.value)}
            error={err('priority')}
            data-testid="computed-priority"
          />
        </SimpleGrid>
        <Textarea
          label={t('fields.expression')}
          description={
            <>
              {t('hints.expression')} <Code>speed * {KNOT_TO_KMH}</Code>{' '}
              <Code>ignition ? &quot;on&quot; : &quot;off&quot;</Code>
            </>
          }
          value={value.expression}
          onChange={(e) => set('expression', e.currentTarget.value)}
          error={err('expression')}
          autosize
          minRows={4}
          maxRows={14}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          styles={{ input: MONO }}
          data-testid="computed-expression"
        />

        <Stack gap={6} p="sm" bg="var(--mantine-color-gray-light)" style={{ borderRadius: 8 }}>
          <Text size="sm" fw={600}>
            {t('test.title')}
          </Text>
          <Group align="flex-end" wrap="nowrap">
            <Select
              style={{ flex: 1 }}
              label={t('test.device')}
              placeholder={t('test.devicePlaceholder')}
              data={deviceOptions}
              value={testDevice}
              onChange={(v) => {
                setTestDevice(v);
                setResult(null);
                setErrors((e) => ({ ...e, testDevice: '' }));
              }}
              searchable
              limit={100}
              nothingFoundMessage={t('test.noDevices')}
              error={errors.testDevice ? t(errors.testDevice) : undefined}
              data-testid="computed-test-device"
            />
            <Button
              variant="light"
              leftSection={<IconFlask size={16} />}
              onClick={() => void runTest()}
              loading={testing}
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

        {linked ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <MultiSelect
              label={t('fields.devices')}
              data={deviceOptions}
              value={wantDevices}
              onChange={setWantDevices}
              searchable
              clearable
              limit={100}
              data-testid="computed-devices"
            />
            <MultiSelect
              label={t('fields.groups')}
              data={groupOptions}
              value={wantGroups}
              onChange={setWantGroups}
              searchable
              clearable
              data-testid="computed-groups"
            />
          </SimpleGrid>
        ) : (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              {t('linksLoading')}
            </Text>
          </Group>
        )}

        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button onClick={() => void submit()} loading={busy} disabled={!linked} data-testid="computed-save">
            {t('save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
