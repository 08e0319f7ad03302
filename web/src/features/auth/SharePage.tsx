// /share/{token}: a shared-link guest signs in with the link's token (GET /api/session?token=) on the login
// screen, then sees its shared vehicle (its detail, the map on it; a shared group: the map). An expired or unknown link shows INVALID_SHARE.
import { Anchor, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { useNavigate } from '../../components/navigation.ts';
import { HttpError } from '../../api/http.ts';
import { forgetShare, guestHome, loginWithShare } from '../../shell/sessionActions.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { ErrorAlert } from './ErrorAlert.tsx';
import { loginFailure, type LoginFailure } from './loginError.ts';

export function SharePage() {
  const { t } = useTranslation('auth');
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<LoginFailure | null>(null);

  useEffect(() => {
    let cancelled = false;
    if (!token.trim()) {
      setFailure({ code: 'INVALID_SHARE' });
      return;
    }
    // the guest's home: its shared vehicle's detail with the map on it (a shared group: the map)
    loginWithShare(token.trim())
      .then(guestHome)
      .then((home) => !cancelled && navigate(home, { replace: true }))
      .catch((err) => {
        if (cancelled) return;
        const auth = err instanceof HttpError && [400, 401, 404].includes(err.status);
        if (auth) forgetShare();
        setFailure(auth ? { code: 'INVALID_SHARE' } : loginFailure(err));
      });
    return () => {
      cancelled = true;
    };
  }, [token, navigate]);

  return (
    <AuthLayout title={t('share.title')}>
      {failure ? (
        <Stack>
          <ErrorAlert failure={failure} />
          <Anchor component={Link} to="/login" size="sm">
            {t('login.backToLogin')}
          </Anchor>
        </Stack>
      ) : (
        <Stack align="center">
          <Loader />
          <Text size="sm">{t('share.opening')}</Text>
        </Stack>
      )}
    </AuthLayout>
  );
}
