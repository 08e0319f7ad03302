// Release notes shown by the changelog dialog, newest first (texts in the `changelog` namespace, entries.<key>).
export type ChangeType = 'feature' | 'improvement' | 'fix' | 'security' | 'breaking';

export interface Release {
  version: string;
  date: string;
  changes: { type: ChangeType; key: string }[];
}

export const CHANGELOG: readonly Release[] = [
  {
    version: '3.2.1',
    date: '2026-11-20',
    changes: [
      { type: 'fix', key: 'shareCountdown' },
      { type: 'security', key: 'rememberToken' },
    ],
  },
  {
    version: '3.2.0',
    date: '2026-10-30',
    changes: [
      { type: 'feature', key: 'weatherWidget' },
      { type: 'feature', key: 'driverQr' },
      { type: 'improvement', key: 'mobilePanel' },
    ],
  },
  {
    version: '3.1.1',
    date: '2026-09-15',
    changes: [
      { type: 'fix', key: 'anchorRadius' },
      { type: 'improvement', key: 'reportExcel' },
    ],
  },
  {
    version: '3.1.0',
    date: '2026-08-25',
    changes: [
      { type: 'feature', key: 'advancedPerms' },
      { type: 'feature', key: 'billing' },
      { type: 'breaking', key: 'permsFormat' },
    ],
  },
  {
    version: '3.0.1',
    date: '2026-07-10',
    changes: [
      { type: 'fix', key: 'socketReconnect' },
      { type: 'security', key: 'loginRateLimit' },
    ],
  },
  {
    version: '3.0.0',
    date: '2026-06-01',
    changes: [
      { type: 'feature', key: 'newMap' },
      { type: 'feature', key: 'languages' },
      { type: 'breaking', key: 'newApi' },
    ],
  },
];
