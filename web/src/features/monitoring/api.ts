// The monitoring desk's calls (issue #32, docs/monitoring.md "API"): the alarm queue and its steps on /{ns}/alarms,
// the alarms report, whom to call (GET /{ns}/alarms/{id}/contacts) and a short live link (made as the share
// dialog makes it).
import {
  type Alarm,
  type AlarmContact,
  type AlarmOutcome,
  type AlarmReport,
  type MonitoringAlarmType,
  type AlarmState,
} from '@rastro/domain';
import { ext } from '../../api/http.ts';
import { createDeviceShare } from '../../components/deviceShare.ts';

export interface AlarmFilters {
  /** 'active': open and acknowledged (the server's default); 'all': handled ones too. */
  state: 'active' | AlarmState | 'all';
  type: MonitoringAlarmType | '';
  deviceId: number | null;
}

export const DEFAULT_FILTERS: AlarmFilters = { state: 'active', type: '', deviceId: null };

export function fetchAlarms(filters: AlarmFilters): Promise<Alarm[]> {
  const query: Record<string, string | number | boolean> = {};
  if (filters.state === 'all') query.all = true;
  else if (filters.state !== 'active') {
    query.state = filters.state;
    if (filters.state === 'resolved') query.all = true;
  }
  if (filters.type) query.type = filters.type;
  if (filters.deviceId) query.deviceId = filters.deviceId;
  return ext.get<Alarm[]>('/alarms', query);
}

export type AlarmStepCall =
  | { step: 'ack'; note?: string }
  | { step: 'assign'; userId: number }
  | { step: 'note'; text: string }
  | { step: 'resolve'; outcome: AlarmOutcome; note?: string };

export function alarmStep(id: number, call: AlarmStepCall): Promise<Alarm> {
  const { step, ...body } = call;
  return ext.post<Alarm>(`/alarms/${id}/${step}`, body);
}

export const fetchAlarmReport = (from: string, to: string) =>
  ext.get<AlarmReport>('/reports/alarms', { from, to });

/** Whom to call about an alarm: the vehicle's users with a phone (domain alarmContacts, answered to every operator). */
export const fetchAlarmContacts = (alarmId: number) => ext.get<AlarmContact[]>(`/alarms/${alarmId}/contacts`);

/** Minutes a live link made from the desk lasts (short: it is for the police on their way). */
export const DESK_SHARE_MINUTES = 120;

/** A live link to the device, valid DESK_SHARE_MINUTES. */
export const createDeskShare = (deviceId: number, isPlus: boolean, nowMs = Date.now()) =>
  createDeviceShare(deviceId, new Date(nowMs + DESK_SHARE_MINUTES * 60_000).toISOString(), isPlus);
