// SPEC §2 static changelog dialog: opened by an administrator clicking the version text 10 times, each click
// within 2 s of the last. Versions v3.0.0 … v3.2.1; entry text is an i18n key (wording in messages.ts).

export const CHANGELOG_CLICKS = 10;
export const CHANGELOG_CLICK_WINDOW_MS = 2_000;

export interface ClickCounter {
  count: number;
  lastClickAt: number | null;
}

export const initialClickCounter = (): ClickCounter => ({ count: 0, lastClickAt: null });

/**
 * One click at `now` (ms). A click more than 2 s after the previous one starts counting again at 1. On the 10th
 * click the dialog opens and the counter resets. Non-administrators never open it (the counter stays at 0).
 */
export function versionClick(
  state: ClickCounter,
  now: number,
  isAdmin: boolean,
): { state: ClickCounter; open: boolean } {
  if (!isAdmin) return { state: initialClickCounter(), open: false };
  const within = state.lastClickAt !== null && now - state.lastClickAt <= CHANGELOG_CLICK_WINDOW_MS;
  const count = within ? state.count + 1 : 1;
  if (count >= CHANGELOG_CLICKS) return { state: initialClickCounter(), open: true };
  return { state: { count, lastClickAt: now }, open: false };
}

export const CHANGELOG_ENTRY_TYPES = ['feature', 'improvement', 'fix', 'security', 'breaking'] as const;
export type ChangelogEntryType = (typeof CHANGELOG_ENTRY_TYPES)[number];

type Wording = Readonly<Record<'pt-BR' | 'es' | 'en-US', string>>;
const w = (en: string, pt: string, es: string): Wording => ({ 'en-US': en, 'pt-BR': pt, es });

/** Wording of every changelog key; merged into the message catalogue. */
export const CHANGELOG_MESSAGES = {
  'changelog.type.feature': w('New', 'Novidade', 'Novedad'),
  'changelog.type.improvement': w('Improvement', 'Melhoria', 'Mejora'),
  'changelog.type.fix': w('Fix', 'Correção', 'Corrección'),
  'changelog.type.security': w('Security', 'Segurança', 'Seguridad'),
  'changelog.type.breaking': w('Breaking change', 'Mudança incompatível', 'Cambio incompatible'),
  'changelog.v321.anchorRadius': w(
    'Anchor circles are drawn with their real 150 m radius',
    'As âncoras são desenhadas com o raio real de 150 m',
    'Los anchors se dibujan con su radio real de 150 m',
  ),
  'changelog.v321.sessionCookie': w(
    'Session cookies are refused from other origins',
    'Cookies de sessão recusados de outras origens',
    'Cookies de sesión rechazadas desde otros orígenes',
  ),
  'changelog.v320.directMessages': w(
    'Send direct messages to a user by web, push, Telegram, SMS or e-mail',
    'Envio de mensagens diretas por web, push, Telegram, SMS ou e-mail',
    'Envío de mensajes directos por web, push, Telegram, SMS o correo',
  ),
  'changelog.v320.advancedFilters': w(
    'Advanced device filters can be combined',
    'Os filtros avançados de dispositivos podem ser combinados',
    'Los filtros avanzados de dispositivos se pueden combinar',
  ),
  'changelog.v320.permissionLayout': w(
    'Advanced permissions now use a 128-bit layout; re-save custom permission strings',
    'As permissões avançadas usam 128 bits; salve novamente as permissões personalizadas',
    'Los permisos avanzados usan 128 bits; vuelva a guardar los permisos personalizados',
  ),
  'changelog.v311.exportFix': w(
    'Route export no longer fails on empty periods',
    'A exportação de rotas não falha mais em períodos vazios',
    'La exportación de rutas ya no falla en períodos vacíos',
  ),
  'changelog.v310.qrDriver': w(
    'QR-code driver check-in with automatic logout on ignition off',
    'Check-in de motorista por QR code com saída automática ao desligar a ignição',
    'Registro de conductor por código QR con salida automática al apagar el encendido',
  ),
  'changelog.v310.mapSpeed': w(
    'The map draws 10,000 vehicles smoothly',
    'O mapa desenha 10.000 veículos com fluidez',
    'El mapa dibuja 10.000 vehículos con fluidez',
  ),
  'changelog.v301.timezoneFix': w(
    'Daily reports respect the user time zone',
    'Relatórios diários respeitam o fuso horário do usuário',
    'Los informes diarios respetan la zona horaria del usuario',
  ),
  'changelog.v301.passwordReset': w(
    'Password reset links expire after use',
    'Os links de redefinição de senha expiram após o uso',
    'Los enlaces de restablecimiento de contraseña caducan tras su uso',
  ),
  'changelog.v300.newInterface': w(
    'New interface with live map, device list and side panel',
    'Nova interface com mapa ao vivo, lista de dispositivos e painel lateral',
    'Nueva interfaz con mapa en vivo, lista de dispositivos y panel lateral',
  ),
  'changelog.v300.billing': w(
    'Optional billing with invoices and automatic suspension',
    'Cobrança opcional com faturas e suspensão automática',
    'Facturación opcional con facturas y suspensión automática',
  ),
} as const satisfies Record<string, Wording>;
export type ChangelogKey = keyof typeof CHANGELOG_MESSAGES;

export interface ChangelogEntry {
  type: ChangelogEntryType;
  key: ChangelogKey;
}
export interface ChangelogVersion {
  version: string;
  date: string;
  entries: readonly ChangelogEntry[];
}

/** Newest first. */
export const CHANGELOG: readonly ChangelogVersion[] = [
  {
    version: 'v3.2.1',
    date: '2026-10-30',
    entries: [
      { type: 'fix', key: 'changelog.v321.anchorRadius' },
      { type: 'security', key: 'changelog.v321.sessionCookie' },
    ],
  },
  {
    version: 'v3.2.0',
    date: '2026-09-15',
    entries: [
      { type: 'feature', key: 'changelog.v320.directMessages' },
      { type: 'improvement', key: 'changelog.v320.advancedFilters' },
      { type: 'breaking', key: 'changelog.v320.permissionLayout' },
    ],
  },
  { version: 'v3.1.1', date: '2026-07-02', entries: [{ type: 'fix', key: 'changelog.v311.exportFix' }] },
  {
    version: 'v3.1.0',
    date: '2026-06-10',
    entries: [
      { type: 'feature', key: 'changelog.v310.qrDriver' },
      { type: 'improvement', key: 'changelog.v310.mapSpeed' },
    ],
  },
  {
    version: 'v3.0.1',
    date: '2026-04-20',
    entries: [
      { type: 'fix', key: 'changelog.v301.timezoneFix' },
      { type: 'security', key: 'changelog.v301.passwordReset' },
    ],
  },
  {
    version: 'v3.0.0',
    date: '2026-03-01',
    entries: [
      { type: 'feature', key: 'changelog.v300.newInterface' },
      { type: 'feature', key: 'changelog.v300.billing' },
    ],
  },
];

/** A release's calendar day ('YYYY-MM-DD') as the language writes it (issue #29), the same day in every zone. */
export function changelogDate(date: string, locale: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return date;
  const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(day);
}

export function changelogTypeKey(type: ChangelogEntryType): ChangelogKey {
  return `changelog.type.${type}`;
}
