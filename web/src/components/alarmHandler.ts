// A vehicle's detail tells its customer that the monitoring center handles an alarm of it (issue #32): the
// operator's name while an alarm of the device is acknowledged or assigned and not resolved. Read from
// GET /{ns}/alarms?deviceId (customers see their devices' alarms) and read again when the socket brings one.
import type { Alarm } from '@rastro/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ext } from '../api/http.ts';
import { onAlarmsMessage } from '../stores/live.ts';

/** The operator handling an alarm of the list: the first unresolved one acknowledged or assigned. */
function handlingOperator(alarms: readonly Alarm[]): string | null {
  const a = alarms.find(
    (x) => x.state !== 'resolved' && (x.state === 'acknowledged' || x.assignedUserId !== null),
  );
  return a ? (a.assignedUserName ?? a.ackUserName ?? '') : null;
}

/** Who handles an alarm of the device now, or null. */
export function useAlarmHandler(deviceId: number): string | null {
  const qc = useQueryClient();
  const alarms = useQuery({
    queryKey: ['device-alarms', deviceId],
    queryFn: () => ext.get<Alarm[]>('/alarms', { deviceId }),
    retry: false,
  });
  useEffect(
    () =>
      onAlarmsMessage((list) => {
        if (list.some((a) => a.deviceId === deviceId))
          void qc.invalidateQueries({ queryKey: ['device-alarms', deviceId] });
      }),
    [deviceId, qc],
  );
  return Array.isArray(alarms.data) ? handlingOperator(alarms.data) : null;
}
