// Figures of the health screen: byte sizes (binary steps, the locale's digits) and uptime split into d/h/min/s.

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** 1536 → "1,5 kB" (pt-BR) / "1.5 kB" (en-US); steps of 1024. */
export function formatBytes(bytes: number, locale: string): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let i = 0;
  while (value >= 1024 && i < BYTE_UNITS.length - 1) {
    value /= 1024;
    i++;
  }
  if (i === 0) return `${new Intl.NumberFormat(locale).format(value)} B`;
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: BYTE_UNITS[i],
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(value);
}

/** "2 d 03 h 04 min", "3 h 04 min", "4 min 05 s", "5 s". */
export function formatUptime(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const [days, hours, minutes, seconds] = [s / 86_400, (s % 86_400) / 3600, (s % 3600) / 60, s % 60].map(
    Math.floor,
  );
  const two = (n: number) => String(n).padStart(2, '0');
  if (days > 0) return `${days} d ${two(hours)} h ${two(minutes)} min`;
  if (hours > 0) return `${hours} h ${two(minutes)} min`;
  if (minutes > 0) return `${minutes} min ${two(seconds)} s`;
  return `${seconds} s`;
}

/** Share of `part` in `whole` as a whole percentage (0 when whole is 0). */
export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 100) : 0;
}
