// Slide-to-confirm (SPEC §4, §9): a handle dragged along a 50 px track, starting 2 px in. Within 5 px of the
// end the state becomes confirmed and `onConfirm` runs once; releasing early resets the handle.
// Mouse and touch use pointer events; the keyboard equivalent still needs a deliberate act: focus the handle and
// press the right arrow (steps of a fifth of the track) or End to reach the end. Leaving early resets. A screen
// reader hears the keys (the handle's description), how far the handle is (aria-valuetext) and, through a status
// region, that it confirmed (issue #29).
import { Box, Text, VisuallyHidden } from '@mantine/core';
import { IconChevronsRight } from '@tabler/icons-react';
import {
  SLIDE_HANDLE_OFFSET,
  SLIDE_TRACK_HEIGHT,
  initialSlide,
  slideMax,
  slideReducer,
  type SlideEvent,
  type SlideState,
} from '@rastro/domain';
import { useEffect, useId, useReducer, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';

export const SLIDE_HANDLE_SIZE = SLIDE_TRACK_HEIGHT - 2 * SLIDE_HANDLE_OFFSET;
/** Used when the track cannot be measured (no layout, e.g. jsdom). */
export const SLIDE_FALLBACK_WIDTH = 300;

export interface SlideToConfirmProps {
  /** Text shown in the track. */
  label: string;
  /** Accessible name of the handle. */
  handleLabel: string;
  onConfirm(): void;
  disabled?: boolean;
  /** Changing it resets the handle. */
  resetKey?: number | string;
  color?: string;
  testId?: string;
}

export function SlideToConfirm({
  label,
  handleLabel,
  onConfirm,
  disabled = false,
  resetKey,
  color = 'red',
  testId = 'slide',
}: SlideToConfirmProps) {
  const { t } = useTranslation('common');
  const hintId = useId();
  const [state, dispatch] = useReducer(
    (s: SlideState, e: SlideEvent) => slideReducer(s, e),
    undefined,
    initialSlide,
  );
  const trackRef = useRef<HTMLDivElement>(null);
  const confirmRef = useRef(onConfirm);
  confirmRef.current = onConfirm;

  useEffect(() => dispatch({ type: 'reset' }), [resetKey]);
  // once per confirmation: the handle stays confirmed until a reset
  useEffect(() => {
    if (state.confirmed) confirmRef.current();
  }, [state.confirmed]);

  const measure = () => {
    const el = trackRef.current;
    const box = el?.getBoundingClientRect();
    return { trackWidth: box?.width || el?.clientWidth || SLIDE_FALLBACK_WIDTH, left: box?.left ?? 0 };
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (disabled || state.confirmed) return;
    e.preventDefault();
    try {
      e.currentTarget.setPointerCapture?.(e.pointerId);
    } catch {
      /* pointer capture is optional (synthetic events) */
    }
    dispatch({ type: 'start', pointerX: e.clientX - measure().left });
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!state.dragging) return;
    const { trackWidth, left } = measure();
    dispatch({ type: 'move', pointerX: e.clientX - left, trackWidth, handleWidth: SLIDE_HANDLE_SIZE });
  };
  const onPointerUp = () => {
    if (state.dragging) dispatch({ type: 'end' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (disabled) return;
    const { trackWidth } = measure();
    const key: SlideEvent = { type: 'key', key: e.key, trackWidth, handleWidth: SLIDE_HANDLE_SIZE };
    if (slideReducer(state, key) === state) return;
    e.preventDefault();
    dispatch(key);
  };
  // Leaving the handle before the end resets it, like releasing a drag early.
  const onBlur = () => {
    if (!state.confirmed) dispatch({ type: 'reset' });
  };

  const trackWidth = trackRef.current?.clientWidth || SLIDE_FALLBACK_WIDTH;
  const max = slideMax(trackWidth, SLIDE_HANDLE_SIZE);
  const travelled = (state.x - SLIDE_HANDLE_OFFSET) / Math.max(1, max - SLIDE_HANDLE_OFFSET);
  const percent = Math.max(0, Math.min(100, Math.round(travelled * 100)));

  return (
    <Box
      ref={trackRef}
      data-testid={`${testId}-track`}
      data-confirmed={state.confirmed ? 'true' : 'false'}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      style={{
        position: 'relative',
        height: SLIDE_TRACK_HEIGHT,
        width: '100%',
        borderRadius: SLIDE_TRACK_HEIGHT / 2,
        background: state.confirmed
          ? `var(--mantine-color-${color}-light)`
          : 'var(--mantine-color-default-hover)',
        border: '1px solid var(--mantine-color-default-border)',
        opacity: disabled ? 0.6 : 1,
        userSelect: 'none',
        touchAction: 'none',
        boxSizing: 'border-box',
      }}
    >
      <Text
        size="sm"
        c="dimmed"
        style={{
          position: 'absolute',
          inset: 0,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          pointerEvents: 'none',
          paddingLeft: SLIDE_HANDLE_SIZE,
        }}
      >
        {label}
      </Text>
      <Box
        role="slider"
        tabIndex={disabled ? -1 : 0}
        aria-label={handleLabel}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={state.confirmed ? t('slide.confirmed') : t('slide.position', { percent })}
        aria-describedby={hintId}
        aria-disabled={disabled || undefined}
        data-testid={`${testId}-handle`}
        data-x={Math.round(state.x)}
        onPointerDown={onPointerDown}
        onKeyDown={onKeyDown}
        onBlur={onBlur}
        style={{
          position: 'absolute',
          top: SLIDE_HANDLE_OFFSET - 1,
          left: state.x - 1,
          width: SLIDE_HANDLE_SIZE,
          height: SLIDE_HANDLE_SIZE,
          borderRadius: '50%',
          background: `var(--mantine-color-${color}-filled)`,
          color: 'white',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          cursor: disabled ? 'not-allowed' : state.dragging ? 'grabbing' : 'grab',
          transition: state.dragging ? 'none' : 'left 150ms ease-out',
          touchAction: 'none',
        }}
      >
        <IconChevronsRight size={22} />
      </Box>
      <span id={hintId} hidden>
        {t('slide.keys')}
      </span>
      <VisuallyHidden role="status">{state.confirmed ? t('slide.confirmed') : ''}</VisuallyHidden>
    </Box>
  );
}
