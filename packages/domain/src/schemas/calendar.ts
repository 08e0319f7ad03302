// Calendar `data` (CONTRACT §3): an iCalendar file as a base64 string. Validated structurally on write:
// balanced BEGIN/END blocks under one VCALENDAR, and every VEVENT has a well-formed DTSTART.

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeBase64(data: string): string | null {
  const clean = data.replace(/\s+/g, '');
  if (clean.length % 4 !== 0 || !B64.test(clean)) return null;
  if (typeof atob === 'function') {
    try {
      const bin = atob(clean);
      const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
      return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    } catch {
      return null;
    }
  }
  return null;
}

const DATE_VALUE = /^\d{8}(T\d{6}Z?)?$/;

/** Returns null when `data` is a valid base64 iCalendar, else an error text. */
export function validateCalendarData(data: string): string | null {
  const text = decodeBase64(data);
  if (text === null) return 'calendar data must be base64';
  const lines = text
    .replace(/\r?\n[ \t]/g, '')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  if (lines.length === 0) return 'calendar data is empty';
  const stack: string[] = [];
  let events = 0;
  let hasStart = false;
  for (const raw of lines) {
    const line = raw.trim();
    const colon = line.indexOf(':');
    if (colon <= 0) return `invalid iCalendar line "${line.slice(0, 40)}"`;
    const name = line.slice(0, colon).split(';')[0].toUpperCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'BEGIN') {
      if (stack.length === 0 && value.toUpperCase() !== 'VCALENDAR')
        return 'iCalendar must start with BEGIN:VCALENDAR';
      stack.push(value.toUpperCase());
      if (value.toUpperCase() === 'VEVENT') hasStart = false;
    } else if (name === 'END') {
      const open = stack.pop();
      if (open !== value.toUpperCase()) return `unbalanced END:${value}`;
      if (open === 'VEVENT') {
        if (!hasStart) return 'VEVENT without DTSTART';
        events++;
      }
    } else if (stack.length === 0) {
      return 'content outside VCALENDAR';
    } else if (name === 'DTSTART' && stack[stack.length - 1] === 'VEVENT') {
      if (!DATE_VALUE.test(value)) return `invalid DTSTART "${value.slice(0, 30)}"`;
      hasStart = true;
    }
  }
  if (stack.length) return `unterminated ${stack[stack.length - 1]}`;
  if (events === 0) return 'calendar has no VEVENT';
  return null;
}
