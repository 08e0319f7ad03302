// A sign-in screen's submit: its busy flag and its failure (a SPEC §8 catalogue code). The form checks come as a
// chunk of their own (loadChecks), fetched once the person starts typing; a submit waits for them only if it comes
// first, and a chunk that cannot be fetched means the server is unreachable.
import { useEffect, useState } from 'react';
import { loadChecks, preloadChecks } from './loadChecks.ts';
import { loginFailure, type LoginFailure } from './loginError.ts';

export function useAuthSubmit() {
  useEffect(preloadChecks, []);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<LoginFailure | null>(null);

  /** Runs a server call; what it throws becomes the failure shown. */
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setFailure(null);
    try {
      await action();
    } catch (err) {
      setFailure(loginFailure(err));
    } finally {
      setBusy(false);
    }
  };

  /** The form checks, or null once the connection error is shown (their chunk could not be fetched). */
  const checks = async () => {
    const loaded = await loadChecks().catch(() => null);
    if (!loaded) setFailure({ code: 'CONNECTION_ERROR' });
    return loaded;
  };

  return { busy, failure, setFailure, run, checks };
}
