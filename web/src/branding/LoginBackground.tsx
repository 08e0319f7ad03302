// The sign-in screens' background from the theme (branding `login`): a plain colour, one cover image, a slider of
// up to 3 images (SPEC §9, recommended 1600x900) cross-fading every SLIDE_MS, or an animated gradient.
// With prefers-reduced-motion the slider stays on its first image and the gradient stands still.
import { Box } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { useEffect, useState, type ReactNode } from 'react';
import { useBranding } from './useBranding.ts';
import { gradientCss, SLIDE_MS, slideAt } from './brand.ts';

const KEYFRAMES = `@keyframes rastro-login-gradient {
  0% { background-position: 0% 50%; }
  50% { background-position: 100% 50%; }
  100% { background-position: 0% 50%; }
}
@media (prefers-reduced-motion: reduce) {
  [data-login-animated] { animation: none !important; }
  [data-login-slide] { transition: none !important; }
}`;

const layer = { position: 'absolute', inset: 0 } as const;
const cover = (url: string) => ({
  backgroundImage: `url("${url.replace(/["\\\n]/g, '')}")`,
  backgroundSize: 'cover',
  backgroundPosition: 'center',
});

function Slider({ slides }: { slides: string[] }) {
  const reduced = useReducedMotion();
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (reduced || slides.length < 2) return;
    const id = setInterval(() => setTick((n) => n + 1), SLIDE_MS);
    return () => clearInterval(id);
  }, [reduced, slides.length]);
  const active = reduced ? 0 : slideAt(tick, slides.length);
  return (
    <>
      {slides.map((url, i) => (
        <Box
          key={`${i}-${url}`}
          data-testid="login-slide"
          data-login-slide
          data-active={i === active || undefined}
          aria-hidden
          style={{ ...layer, ...cover(url), opacity: i === active ? 1 : 0, transition: 'opacity 1.2s ease' }}
        />
      ))}
    </>
  );
}

export function LoginBackground({ children }: { children: ReactNode }) {
  const { login } = useBranding();
  const kind = login.background;
  const base =
    kind === 'color' && login.color
      ? login.color
      : kind === 'animated'
        ? undefined
        : 'var(--mantine-color-body)';
  return (
    <Box
      data-testid="login-background"
      data-kind={kind}
      style={{ position: 'relative', minHeight: '100dvh', background: base, overflow: 'hidden' }}
    >
      <style>{KEYFRAMES}</style>
      {kind === 'image' && login.image && <Box aria-hidden style={{ ...layer, ...cover(login.image) }} />}
      {kind === 'slider' && login.slides.length > 0 && <Slider slides={login.slides.slice(0, 3)} />}
      {kind === 'animated' && (
        <Box
          aria-hidden
          data-login-animated
          style={{
            ...layer,
            background: gradientCss(login.gradient),
            backgroundSize: '400% 400%',
            animation: 'rastro-login-gradient 18s ease infinite',
          }}
        />
      )}
      <Box style={{ position: 'relative' }}>{children}</Box>
    </Box>
  );
}
