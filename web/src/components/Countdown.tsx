// Ticks once a second towards a moment and calls onExpire once when it passes (shared-link expiry, SPEC §4).
import { useEffect, useRef, type ReactNode } from 'react';
import { useNow } from './useNow.ts';

export interface CountdownProps {
  /** ISO date or epoch milliseconds. */
  expiresAt: string | number;
  onExpire?: () => void;
  /** Renders the whole seconds left (0 once expired). */
  children: (secondsLeft: number) => ReactNode;
}

export function secondsUntil(expiresAt: string | number, now: number = Date.now()): number {
  const at = typeof expiresAt === 'number' ? expiresAt : Date.parse(expiresAt);
  if (!Number.isFinite(at)) return 0;
  return Math.max(0, Math.floor((at - now) / 1000));
}

export function Countdown({ expiresAt, onExpire, children }: CountdownProps) {
  const left = secondsUntil(expiresAt, useNow(1000));
  const onExpireRef = useRef(onExpire);
  onExpireRef.current = onExpire;
  // once when the moment passes (again only after a later moment was given)
  const expired = left === 0;
  useEffect(() => {
    if (expired) onExpireRef.current?.();
  }, [expired]);

  return <span data-testid="countdown">{children(left)}</span>;
}
