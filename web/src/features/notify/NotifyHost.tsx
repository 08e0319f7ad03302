// Live event notifications (SPEC §4, §9): each event from the socket becomes a 380 px card whose colour,
// corner, pin and sound come from the matching notification rule's attributes; cards close after 4500 ms
// unless pinned; no sound plays while muted (prefs isMuted).
import { ActionIcon, Group, Paper, Stack, Text } from '@mantine/core';
import { IconPinned, IconX } from '@tabler/icons-react';
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  NOTIFICATION_COLOR_STYLES,
  NOTIFICATION_POSITIONS,
  attrString,
  eventText,
  formatTime,
  normalizeLocale,
  parseAlarms,
  parseNotificators,
  resolveNotificationStyle,
  traccarName,
  type Event,
  type Notification,
  type NotificationPosition,
  type NotificationStyle,
} from '@rastro/domain';
import { useResourceList } from '../../api/resources.ts';
import { useUnits } from '../../i18n/useUnits.ts';
import { useLive } from '../../stores/live.ts';
import { usePrefs } from '../../stores/prefs.ts';
import { useSession } from '../../stores/session.ts';
import { useCan } from '../../components/useCan.ts';

/** The web rule that produced an event: same type, `web` notificator, and for alarms the alarm listed. */
export function ruleForEvent(event: Event, rules: readonly Notification[]): Notification | undefined {
  const alarm = attrString(event.attributes?.alarm);
  const candidates = rules.filter(
    (r) => r.type === event.type && parseNotificators(r.notificators).includes('web'),
  );
  if (event.type === 'alarm' && alarm) {
    const exact = candidates.find((r) => parseAlarms(r.attributes?.alarms).includes(alarm));
    if (exact) return exact;
  }
  return candidates[0];
}

const CORNER: Record<NotificationPosition, React.CSSProperties> = {
  'top-right': { top: 70, right: 16 },
  'top-left': { top: 70, left: 16 },
  'bottom-right': { bottom: 16, right: 16 },
  'bottom-left': { bottom: 16, left: 16 },
};

interface Card {
  key: string;
  event: Event;
  style: NotificationStyle;
  deviceName: string;
}

/** Plays a notification sound; returns the element (tests spy on HTMLMediaElement.play). */
export function playSound(style: NotificationStyle): HTMLAudioElement | null {
  if (style.sound.kind === 'mute' || typeof Audio === 'undefined') return null;
  const audio = new Audio(style.sound.url);
  void audio.play()?.catch(() => undefined);
  return audio;
}

export function NotifyHost() {
  const ns = useSession((s) => s.ns);
  // the rules give each event its colour, sound and corner; whom the server refuses them (a QR driver, a share
  // guest) gets the default style
  const rulesAllowed = useCan('bit.notifications.view');
  const rules = useResourceList('notifications', undefined, { enabled: rulesAllowed, staleTime: 60_000 });
  const rulesRef = useRef<Notification[]>([]);
  rulesRef.current = rules.data ?? [];
  // events wait for the rules (their colour, sound and corner): an alarm that came with the page's first live
  // message was shown in the default style when the rules' answer came after it; a failed answer shows defaults
  const rulesSettled = !rulesAllowed || !rules.isPending;
  const [cards, setCards] = useState<Card[]>([]);
  const seen = useRef(new Set<Event>());
  const close = useCallback((key: string) => setCards((c) => c.filter((x) => x.key !== key)), []);

  useEffect(() => {
    if (!rulesSettled) return;
    const onEvents = (events: Event[]) => {
      const fresh = events.filter((e) => !seen.current.has(e));
      if (!fresh.length) return;
      if (seen.current.size > 1000) seen.current = new Set(events);
      const muted = usePrefs.getState().isMuted;
      const added: Card[] = [];
      for (const event of fresh) {
        seen.current.add(event);
        const rule = ruleForEvent(event, rulesRef.current);
        const style = resolveNotificationStyle(rule?.attributes, ns, muted);
        const key = `${event.id}-${event.eventTime}-${Math.random().toString(36).slice(2, 6)}`;
        const deviceName = useLive.getState().devices[event.deviceId]?.name ?? `#${event.deviceId}`;
        added.push({ key, event, style, deviceName });
      }
      // one sound per batch (several events in one frame would otherwise play on top of each other)
      const loud = added.find((c) => c.style.sound.kind !== 'mute');
      if (loud) playSound(loud.style);
      setCards((c) => [...c, ...added].slice(-20));
    };
    onEvents(useLive.getState().events);
    return useLive.subscribe((s, prev) => {
      if (s.events !== prev.events) onEvents(s.events);
    });
  }, [ns, rulesSettled]);

  return (
    <>
      {NOTIFICATION_POSITIONS.map((pos) => {
        const list = cards.filter((c) => c.style.position === pos);
        if (!list.length) return null;
        return (
          <Stack
            key={pos}
            gap={8}
            data-testid={`notify-stack-${pos}`}
            style={{
              position: 'fixed',
              zIndex: 400,
              width: 380,
              maxWidth: 'calc(100vw - 32px)',
              ...CORNER[pos],
            }}
          >
            {list.map((c) => (
              <NotificationCard key={c.key} card={c} position={pos} onClose={close} />
            ))}
          </Stack>
        );
      })}
    </>
  );
}

/** One card, closing itself after its style's autoClose unless pinned; memoised, so a new event renders its own card
 * only (a busy fleet raises many a second). */
const NotificationCard = memo(function NotificationCard({
  card: c,
  position,
  onClose,
}: {
  card: Card;
  position: NotificationPosition;
  onClose: (key: string) => void;
}) {
  const { t, i18n } = useTranslation('notify');
  useEffect(() => {
    if (c.style.autoClose <= 0) return;
    const timer = setTimeout(() => onClose(c.key), c.style.autoClose);
    return () => clearTimeout(timer);
  }, [c, onClose]);
  const colors = NOTIFICATION_COLOR_STYLES[c.style.color];
  const alarm = attrString(c.event.attributes?.alarm);
  const lang = normalizeLocale(i18n.language) ?? undefined;
  const { speedUnit } = useUnits();
  const geofences = useResourceList('geofences', undefined, {
    enabled: !!c.event.geofenceId,
    staleTime: 60_000,
  });
  const geofenceName = geofences.data?.find((g) => g.id === c.event.geofenceId)?.name;
  // the server wrote attributes.message in the recipient's saved language (Traccar's clients show it); the card
  // writes it again in the page's language and units. A text message keeps the server's text, which carries the
  // device's own words.
  const message =
    c.event.type === 'textMessage'
      ? attrString(c.event.attributes?.message)
      : eventText(c.event, { deviceName: c.deviceName, geofenceName, lang, speedUnit });
  return (
    <Paper
      shadow="md"
      p="sm"
      role="alert"
      data-testid="notification-card"
      data-color={c.style.color}
      data-position={position}
      data-pinned={c.style.pinned ? 'true' : 'false'}
      data-sound={c.style.sound.kind === 'mute' ? 'mute' : c.style.sound.url}
      data-event-type={c.event.type}
      style={{ width: c.style.width, maxWidth: '100%', background: colors.bg, color: colors.fg }}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <div style={{ minWidth: 0 }}>
          <Text fw={700} size="sm">
            {traccarName('events', c.event.type, i18n.language)}
            {alarm
              ? ` · ${parseAlarms(alarm)
                  .map((a) => traccarName('alarms', a, i18n.language))
                  .join(', ')}`
              : ''}
          </Text>
          <Text size="sm">{c.deviceName}</Text>
          {message && (
            // full opacity: faded text fell under WCAG AA's 4.5:1 on the coloured cards (issue #29, axe-core)
            <Text size="xs">{message}</Text>
          )}
          <Text size="xs">{formatTime(c.event.eventTime, i18n.language, undefined, true)}</Text>
        </div>
        <Group gap={2} wrap="nowrap">
          {c.style.pinned && <IconPinned size={14} aria-label={t('pinned')} />}
          <ActionIcon
            variant="transparent"
            size="sm"
            style={{ color: colors.fg }}
            aria-label={t('close')}
            data-testid="notification-close"
            onClick={() => onClose(c.key)}
          >
            <IconX size={14} />
          </ActionIcon>
        </Group>
      </Group>
    </Paper>
  );
});
