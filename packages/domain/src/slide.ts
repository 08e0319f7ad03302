// SPEC §4/§9 slide-to-confirm (block, unlock, anchor, delete): a handle dragged along a 50 px track.

export const SLIDE_TRACK_HEIGHT = 50;
export const SLIDE_HANDLE_OFFSET = 2;
export const SLIDE_THRESHOLD = 5;
export const SLIDE_ACTION_DELAY_MS = 500;
/** Keyboard step as a share of the handle's travel. */
export const SLIDE_KEY_STEPS = 5;

export type SlideAction = 'block' | 'unlock' | 'anchor' | 'delete';

/** Block, unlock and anchor act 500 ms after confirmation; delete acts at once. */
export function slideActionDelay(action: SlideAction): number {
  return action === 'delete' ? 0 : SLIDE_ACTION_DELAY_MS;
}

export interface SlideState {
  /** Handle left position in px. */
  x: number;
  dragging: boolean;
  confirmed: boolean;
  /** Pointer x where the drag started minus the handle x then. */
  grab: number;
}

export const initialSlide = (): SlideState => ({
  x: SLIDE_HANDLE_OFFSET,
  dragging: false,
  confirmed: false,
  grab: 0,
});

/** Furthest handle position: the handle ends 2 px before the track end, mirroring its start. */
export function slideMax(trackWidth: number, handleWidth: number): number {
  return Math.max(SLIDE_HANDLE_OFFSET, trackWidth - handleWidth - SLIDE_HANDLE_OFFSET);
}

export function isSlideConfirmed(x: number, trackWidth: number, handleWidth: number): boolean {
  return x >= slideMax(trackWidth, handleWidth) - SLIDE_THRESHOLD;
}

export type SlideEvent =
  | { type: 'start'; pointerX: number }
  | { type: 'move'; pointerX: number; trackWidth: number; handleWidth: number }
  | { type: 'end' }
  | { type: 'reset' }
  | { type: 'key'; key: string; trackWidth: number; handleWidth: number };

/**
 * Pure reducer. Moving within 5 px of the end confirms (the handle snaps to the end and stops following);
 * releasing before that resets the handle to its 2 px start; reset (cancel/close) always resets.
 */
export function slideReducer(state: SlideState, ev: SlideEvent): SlideState {
  switch (ev.type) {
    case 'start':
      if (state.confirmed) return state;
      return { ...state, dragging: true, grab: ev.pointerX - state.x };
    case 'move': {
      if (!state.dragging || state.confirmed) return state;
      const max = slideMax(ev.trackWidth, ev.handleWidth);
      const x = Math.min(max, Math.max(SLIDE_HANDLE_OFFSET, ev.pointerX - state.grab));
      if (isSlideConfirmed(x, ev.trackWidth, ev.handleWidth))
        return { ...state, x: max, confirmed: true, dragging: false };
      return { ...state, x };
    }
    case 'end':
      return state.confirmed ? { ...state, dragging: false } : initialSlide();
    case 'reset':
      return initialSlide();
    case 'key':
      return slideKey(state, ev);
  }
}

/**
 * The keyboard's deliberate act: the right (or up) arrow moves the handle a fifth of its travel as if dragged from
 * where it is, End to the end, the left (or down) arrow back a fifth, Home or Escape back to the start. The same
 * state when the key does nothing (another key, confirmed, Home or Escape at the start): the key keeps its own
 * meaning then (Escape closes the dialog).
 */
function slideKey(state: SlideState, ev: Extract<SlideEvent, { type: 'key' }>): SlideState {
  if (state.confirmed) return state;
  if (ev.key === 'Home' || ev.key === 'Escape')
    return state.x === SLIDE_HANDLE_OFFSET ? state : initialSlide();
  const max = slideMax(ev.trackWidth, ev.handleWidth);
  const step = (max - SLIDE_HANDLE_OFFSET) / SLIDE_KEY_STEPS;
  const target =
    ev.key === 'ArrowRight' || ev.key === 'ArrowUp'
      ? state.x + step
      : ev.key === 'End'
        ? max
        : ev.key === 'ArrowLeft' || ev.key === 'ArrowDown'
          ? state.x - step
          : null;
  if (target === null) return state;
  const grabbed = slideReducer(state, { type: 'start', pointerX: state.x });
  return slideReducer(grabbed, { ...ev, type: 'move', pointerX: target });
}
