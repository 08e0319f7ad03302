// The device detail's driver (issue #28): the driver catalogue's name for the driver's code, as reports name a
// trip's driver (domain deviceDriverLabel), with the code after it in smaller text; the code alone when the
// catalogue (GET /api/drivers, fetched only when there is a code) has no such driver.
import { Text } from '@mantine/core';
import { deviceDriverLabel, deviceDriver, type Device, type Position } from '@rastro/domain';
import { useResourceList } from '../../api/resources.ts';

export function DriverName({ device, position }: { device: Device; position: Position | undefined }) {
  const drivers = useResourceList('drivers', undefined, {
    enabled: deviceDriver(device, position) !== undefined,
    staleTime: 60_000,
  });
  const label = deviceDriverLabel(device, position, drivers.data);
  if (!label) return <>—</>;
  if (!label.name) return <span data-testid="detail-driver-code">{label.code}</span>;
  return (
    <>
      <span data-testid="detail-driver-name">{label.name}</span>
      {label.code && (
        <Text span size="xs" c="dimmed" ml={6} data-testid="detail-driver-code">
          {label.code}
        </Text>
      )}
    </>
  );
}
