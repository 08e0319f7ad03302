// The signed-in reader's units (domain resolveUnits: their choice, else the server's, else the page language's
// defaults — km/h in pt-BR and es, Traccar's knots in en-US). Every screen asks this hook.
import { resolveUnits, type Units } from '@rastro/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../stores/session.ts';

export function useUnits(): Units {
  const { i18n } = useTranslation();
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const lang = i18n.language;
  return useMemo(() => resolveUnits(user, server, lang), [user, server, lang]);
}
