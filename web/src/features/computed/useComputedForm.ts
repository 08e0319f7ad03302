// The state of the computed attribute dialog (ComputedDialog.tsx): the form and its errors, the device and group
// links loaded for an existing attribute, the test against a device's latest position, and saving (the attribute,
// then its links) through the shared parse-and-save form (components/useParsedForm.ts).
import { parseComputedForm, type ComputedFormValues, type ComputedTestResult } from '@rastro/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { refusalMessage } from '../../api/http.ts';
import { resourceKeys, useSaveResource } from '../../api/resources.ts';
import { useParsedForm } from '../../components/useParsedForm.ts';
import { useResourceOptions } from '../../components/useResourceOptions.ts';
import { loadLinks, saveLinks, testComputed } from './api.ts';

const NO_LINKS = { device: [] as number[], group: [] as number[] };

/** The links of attribute `id` (none for a new one, or when they cannot be read), and the ones chosen in the form. */
function useComputedLinks(id: number) {
  const stored = useQuery({
    queryKey: ['computed-links', id],
    queryFn: () =>
      Promise.all([loadLinks('device', id), loadLinks('group', id)]).then(([device, group]) => ({
        device,
        group,
      })),
    enabled: id > 0,
    gcTime: 0,
  });
  const linked = id <= 0 || stored.isError ? NO_LINKS : (stored.data ?? null);
  // the form's choice; the stored links until one is made
  const [devices, setWantDevices] = useState<string[] | null>(null);
  const [groups, setWantGroups] = useState<string[] | null>(null);
  const wantDevices = devices ?? linked?.device.map(String) ?? [];
  const wantGroups = groups ?? linked?.group.map(String) ?? [];
  const saveAll = async (savedId: number) => {
    if (!linked) return;
    await saveLinks('device', savedId, linked.device, wantDevices.map(Number));
    await saveLinks('group', savedId, linked.group, wantGroups.map(Number));
  };
  return { linked, wantDevices, setWantDevices, wantGroups, setWantGroups, saveAll };
}

export function useComputedForm(initial: ComputedFormValues, onClose: () => void) {
  const qc = useQueryClient();
  const save = useSaveResource('attributes/computed');
  const deviceOptions = useResourceOptions('devices', { sorted: true });
  const groupOptions = useResourceOptions('groups');
  const [testDevice, setTestDevice] = useState<string | null>(null);
  const [result, setResult] = useState<ComputedTestResult | null>(null);
  const testing = useMutation({
    mutationFn: (args: Parameters<typeof testComputed>) => testComputed(...args),
    onSuccess: setResult,
    onError: (e) => setResult({ kind: 'error', message: e instanceof Error ? e.message : String(e) }),
  });
  const links = useComputedLinks(initial.id);
  const f = useParsedForm({
    ns: 'computed',
    initial,
    parse: (v: ComputedFormValues) => {
      const r = parseComputedForm(v);
      return r.ok ? { ok: true, value: r.attribute } : r;
    },
    save: async (attribute) => {
      const saved = await save.mutateAsync(attribute);
      await links.saveAll(saved.id);
      await qc.invalidateQueries({ queryKey: resourceKeys.all('attributes/computed') });
    },
    failure: (e, t) => refusalMessage(e) ?? t('saveError'),
    what: 'computed attribute',
    onClose,
  });
  const { form: value, setForm: setValue, setErrors } = f;

  const set = <K extends keyof ComputedFormValues>(key: K, v: ComputedFormValues[K]) => {
    setValue((prev) => ({ ...prev, [key]: v }));
    setResult(null);
  };

  const pickTestDevice = (v: string | null) => {
    setTestDevice(v);
    setResult(null);
    setErrors((e) => ({ ...e, testDevice: '' }));
  };

  const runTest = () => {
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
    testing.mutate([r.attribute, Number(testDevice)]);
  };

  return {
    value,
    set,
    err: f.err,
    deviceOptions,
    groupOptions,
    test: { device: testDevice, pick: pickTestDevice, run: runTest, running: testing.isPending, result },
    links,
    busy: f.busy,
    submit: f.submit,
  };
}

export type ComputedFormState = ReturnType<typeof useComputedForm>;
