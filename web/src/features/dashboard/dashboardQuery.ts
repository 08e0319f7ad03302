// The dashboard's filter as API queries (GET /{ns}/dashboard, /{ns}/scores) and as links to the reports that explain
// each figure. Pure, so the unit tests read it without a browser.
import { reportLink, type ReportLink, type ReportRouteKind, type ScoreSubject } from '@rastro/domain';
import { toQueryString, type Query } from '../../api/http.ts';

/** The devices, groups and period the figures are for: a report link's (without event types). */
export type InsightsFilter = Omit<ReportLink, 'types'>;

/** The API query: deviceId and groupId repeated as the reports' are, the period, and `extra`. */
export const insightsQuery = (f: InsightsFilter, extra: Query = {}): string =>
  toQueryString({ deviceId: f.deviceIds, groupId: f.groupIds, from: f.from, to: f.to, ...extra }).slice(1);

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
