// Ticks once a second towards a moment and calls onExpire once when it passes (shared-link expiry, SPEC §4).
import { useEffect, useRef, useState, type ReactNode } from 'react';

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
  const [left, setLeft] = useState(() => secondsUntil(expiresAt));
  const fired = useRef(false);
  const onExpireRef = useRef(onExpire);
  useEffect(() => {
    onExpireRef.current = onExpire;
  }, [onExpire]);

  useEffect(() => {
    fired.current = false;
    const tick = () => {
      const s = secondsUntil(expiresAt);
      setLeft(s);
      if (s <= 0 && !fired.current) {
        fired.current = true;
        onExpireRef.current?.();
      }
    };
    tick();
    const id = setInterval(tick, 1000);
    return () => clearInterval(id);
  }, [expiresAt]);

  return <span data-testid="countdown">{children(left)}</span>;
}
