// The export menu of /history: the route's points as Excel, GPX, KML or CSV.
import { Button, Menu } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { ROUTE_HEADERS_EN, type RoutePoint } from '@rastro/domain';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useUnits } from '../../i18n/useUnits.ts';
import { downloadBlob } from '../../components/xlsx.ts';
import { buildRouteExport, EXPORT_FORMATS, ROUTE_COLUMNS, type ExportFormat } from './exports.ts';

export function ExportMenu({
  points,
  deviceName,
  disabled,
}: {
  points: RoutePoint[] | null;
  deviceName: string;
  disabled: boolean;
}) {
  const { t } = useTranslation('history');
  const units = useUnits();
  const exporting = useMutation({
    mutationFn: async (format: ExportFormat) => {
      if (!points) return;
      const headers = { ...ROUTE_HEADERS_EN };
      for (const k of ROUTE_COLUMNS) headers[k] = t(`table.${k}`);
      const f = await buildRouteExport(format, deviceName, points, units.speedUnit, headers);
      downloadBlob(f.data, f.filename, f.type);
    },
  });

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} />}
          disabled={disabled}
          loading={exporting.isPending}
          data-testid="history-export"
        >
          {t('export')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {EXPORT_FORMATS.map((f) => (
          <Menu.Item key={f} onClick={() => exporting.mutate(f)} data-testid={`history-export-${f}`}>
            {t(`exportFormats.${f}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
