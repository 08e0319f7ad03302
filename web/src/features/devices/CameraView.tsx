// The camera view of the device detail (SPEC §2; §8 video messages; packages/domain camera.ts): the device's video
// address (attribute videoUrl, cameraUrl, streamUrl or camera) played in a <video> (or an <img> for stills and
// MJPEG), retried up to VIDEO_MAX_ATTEMPTS times with a VIDEO_LOAD_TIMEOUT_MS limit per try, then "video not
// available after several attempts" with a button to try again.
import { Alert, Button, Stack, Text } from '@mantine/core';
import {
  VIDEO_LOAD_TIMEOUT_MS,
  VIDEO_MAX_ATTEMPTS,
  cameraAttemptUrl,
  type CameraSource,
} from '@rastro/domain';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Keyed by the source's address where it is used: another address starts again at the first attempt. */
export function CameraView({ source, name }: { source: CameraSource; name: string }) {
  const { t } = useTranslation('devices');
  const [attempt, setAttempt] = useState(1);
  // 'timedOut': the last try gave up after VIDEO_LOAD_TIMEOUT_MS (said until one plays)
  const [status, setStatus] = useState<'loading' | 'timedOut' | 'playing'>('loading');
  const playing = status === 'playing';
  const failed = attempt > VIDEO_MAX_ATTEMPTS;

  useEffect(() => {
    if (playing || failed) return;
    const timer = setTimeout(() => {
      setStatus('timedOut');
      setAttempt((a) => a + 1);
    }, VIDEO_LOAD_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [attempt, playing, failed]);

  const fail = () => {
    if (playing) setStatus('loading');
    setAttempt((a) => a + 1);
  };
  const ok = () => setStatus('playing');
  const url = cameraAttemptUrl(source.url, attempt);

  return (
    <Stack gap={4} data-testid="camera-view" data-attempt={Math.min(attempt, VIDEO_MAX_ATTEMPTS + 1)}>
      <Text size="sm" fw={500}>
        {t('camera.title')}
      </Text>
      {failed ? (
        <Alert color="red" data-testid="camera-unavailable">
          <Stack gap={6} align="flex-start">
            {t('common:camera.unavailable')}
            <Button size="xs" variant="light" onClick={() => setAttempt(1)} data-testid="camera-retry">
              {t('camera.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : source.kind === 'image' ? (
        <img
          key={url}
          src={url}
          alt={t('camera.alt', { name })}
          onLoad={ok}
          onError={fail}
          style={{ width: '100%', borderRadius: 6, background: '#000' }}
        />
      ) : (
        <video
          key={url}
          src={url}
          controls
          autoPlay
          muted
          playsInline
          aria-label={t('camera.alt', { name })}
          onLoadedData={ok}
          onError={fail}
          style={{ width: '100%', borderRadius: 6, background: '#000' }}
        />
      )}
      {status === 'timedOut' && !failed && (
        <Text size="xs" c="dimmed" data-testid="camera-timeout">
          {t('common:camera.timeout')}
        </Text>
      )}
    </Stack>
  );
}
