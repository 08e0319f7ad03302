// The `drivers` dialog of the user menu (SPEC §2, bit 80; §3 Driver): list with search, form with the SPEC
// fields (licence, category, filiation, validity, state, birth and first-licence dates, observations, CPF, phone,
// e-mail, QR access) kept in attributes, uniqueId required and unique (the server's 400 is shown translated),
// delete with confirmation. The list, form frame and delete are the catalogue scaffold (components/Catalogue*).
import { Avatar } from '@mantine/core';
import {
  DRIVER_IMAGE_KEY,
  attrString,
  driverImageUrl,
  driverSaveError,
  driverToForm,
  emptyDriverForm,
  parseDriverForm,
  type Driver,
  type DriverFormValues,
} from '@rastro/domain';
import { CatalogueDialog, CatalogueForm } from '../../components/CatalogueDialog.tsx';
import { CatalogueList } from '../../components/CatalogueList.tsx';
import type { DataColumn } from '../../components/DataTable.tsx';
import { useCatalogue } from '../../components/useCatalogue.ts';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { HttpError } from '../../api/http.ts';
import { useSession } from '../../stores/session.ts';
import { DriverFields } from './DriverFields.tsx';

const attr = (d: Driver, k: string) => String(d.attributes?.[k] ?? '—');

export function DriversDialog({ onClose }: DialogComponentProps) {
  const ns = useSession((s) => s.ns);
  const c = useCatalogue<'drivers', DriverFormValues>({
    resource: 'drivers',
    ns: 'drivers',
    area: 'drivers',
    parse: (form, items) => parseDriverForm(form, items.find((d) => d.id === form.id) ?? null),
    saveError: (err, t) => {
      const key = err instanceof HttpError ? driverSaveError(err.status, err.text) : 'saveError';
      return { errors: key.startsWith('errors.') ? { uniqueId: key } : undefined, message: t(key) };
    },
  });
  const { t } = c;
  const columns: DataColumn<Driver>[] = [
    {
      key: 'photo',
      header: '',
      cell: (d) => (
        <Avatar
          size="sm"
          src={driverImageUrl(d.id, attrString(d.attributes?.[DRIVER_IMAGE_KEY]), ns)}
          alt=""
          name={d.name}
          color="initials"
        />
      ),
    },
    { key: 'name', header: t('fields.name'), cell: (d) => d.name, sortBy: (d) => d.name },
    { key: 'uniqueId', header: t('fields.uniqueId'), cell: (d) => d.uniqueId, sortBy: (d) => d.uniqueId },
    { key: 'licenseNumber', header: t('fields.licenseNumber'), cell: (d) => attr(d, 'licenseNumber') },
    { key: 'phone', header: t('fields.phone'), cell: (d) => attr(d, 'phone') },
  ];

  return (
    <CatalogueDialog c={c} menu="drivers" onClose={onClose} size={[820, 760]} testId="drivers-dialog">
      {c.editing ? (
        <CatalogueForm c={c} prefix="driver" testId="driver-form">
          <DriverFields c={c} form={c.editing} ns={ns} />
        </CatalogueForm>
      ) : (
        <CatalogueList
          c={c}
          prefix="driver"
          plural="drivers"
          columns={columns}
          searchIn={(d) => [
            d.name,
            d.uniqueId,
            d.attributes?.cpf,
            d.attributes?.licenseNumber,
            d.attributes?.phone,
          ]}
          newForm={emptyDriverForm}
          toForm={driverToForm}
        />
      )}
    </CatalogueDialog>
  );
}
