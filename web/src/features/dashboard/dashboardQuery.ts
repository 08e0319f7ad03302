// The dashboard's filter as API queries (GET /{ns}/dashboard, /{ns}/scores) and as links to the reports that explain
// each figure. Pure, so the unit tests read it without a browser.
import { reportLink, type ReportRouteKind, type ScoreSubject } from '@rastro/domain';

export interface InsightsFilter {
  deviceIds: number[];
  groupIds: number[];
  /** ISO instants */
  from: string;
  to: string;
}

export function insightsQuery(f: InsightsFilter, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const id of f.deviceIds) params.append('deviceId', String(id));
  for (const id of f.groupIds) params.append('groupId', String(id));
  params.set('from', f.from);
  params.set('to', f.to);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  return params.toString();
}

export const FIGURES = ['distance', 'drivingTime', 'idleTime', 'stops', 'overspeeds', 'fuel'] as const;
export type Figure = (typeof FIGURES)[number];

/** The report that explains each figure (and the event type it is filtered to). */
const EXPLAINED_BY: Record<Figure, { kind: ReportRouteKind; types?: string[] }> = {
  distance: { kind: 'resume' },
  drivingTime: { kind: 'travels' },
  idleTime: { kind: 'stops' },
  stops: { kind: 'stops' },
  overspeeds: { kind: 'events', types: ['deviceOverspeed'] },
  fuel: { kind: 'resume' },
};

export function figureLink(figure: Figure, f: InsightsFilter): string {
  const { kind, types } = EXPLAINED_BY[figure];
  return reportLink(kind, { ...f, types });
}

/** One vehicle's figures in a report (the charts' bars). */
export function deviceLink(kind: ReportRouteKind, deviceId: number, f: InsightsFilter): string {
  return reportLink(kind, { deviceIds: [deviceId], groupIds: [], from: f.from, to: f.to });
}

export const scoresQuery = (f: InsightsFilter, by: ScoreSubject) => insightsQuery(f, { by });
