// The state of the computed attribute dialog (ComputedDialog.tsx): the form and its errors, the device and group
// links loaded for an existing attribute, the test against a device's latest position, and saving (the attribute,
// then its links) through the shared parse-and-save form (components/useParsedForm.ts).
import { parseComputedForm, type ComputedFormValues, type ComputedTestResult } from '@rastro/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { refusalMessage } from '../../api/http.ts';
import { resourceKeys, useSaveResource } from '../../api/resources.ts';
import { useParsedForm } from '../../components/useParsedForm.ts';
import { useResourceOptions } from '../../components/useResourceOptions.ts';
import { loadLinks, saveLinks, testComputed } from './api.ts';

type Links = { device: number[]; group: number[] };

/** The links of attribute `id` (none to load for a new one), and the device and group ids chosen in the form. */
function useComputedLinks(id: number) {
  const [linked, setLinked] = useState<Links | null>(id > 0 ? null : { device: [], group: [] });
  const [wantDevices, setWantDevices] = useState<string[]>([]);
  const [wantGroups, setWantGroups] = useState<string[]>([]);
  useEffect(() => {
    if (id <= 0) return;
    let live = true;
    Promise.all([loadLinks('device', id), loadLinks('group', id)])
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
  }, [id]);
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
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<ComputedTestResult | null>(null);
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

  return {
    value,
    set,
    err: f.err,
    deviceOptions,
    groupOptions,
    test: { device: testDevice, pick: pickTestDevice, run: runTest, running: testing, result },
    links,
    busy: f.busy,
    submit: f.submit,
  };
}

export type ComputedFormState = ReturnType<typeof useComputedForm>;
