import { describe, expect, it } from 'vitest';
import {
  SLIDE_TRACK_HEIGHT,
  initialSlide,
  isSlideConfirmed,
  slideActionDelay,
  slideMax,
  slideReducer,
  type SlideState,
} from '../src/slide.ts';

const track = 300;
const handle = 46; // max = 300 - 46 - 2 = 252; confirmed from 247
const move = (s: SlideState, pointerX: number) =>
  slideReducer(s, { type: 'move', pointerX, trackWidth: track, handleWidth: handle });

describe('slide to confirm (SPEC §9)', () => {
  it('track 50 px, handle starts 2 px in', () => {
    expect(SLIDE_TRACK_HEIGHT).toBe(50);
    expect(initialSlide().x).toBe(2);
    expect(slideMax(track, handle)).toBe(252);
  });
  it('confirmed within 5 px of the end', () => {
    expect(isSlideConfirmed(247, track, handle)).toBe(true);
    expect(isSlideConfirmed(246.9, track, handle)).toBe(false);
  });
  it('drag, confirm, and early release resets', () => {
    let s = slideReducer(initialSlide(), { type: 'start', pointerX: 10 }); // grab = 8
    s = move(s, 100);
    expect(s).toMatchObject({ x: 92, dragging: true, confirmed: false });
    s = move(s, -50);
    expect(s.x).toBe(2);
    s = move(s, 254); // x = 246 ⇒ not yet
    expect(s.confirmed).toBe(false);
    expect(slideReducer(s, { type: 'end' })).toEqual(initialSlide());
    s = move(s, 255); // x = 247 ⇒ confirmed, snaps to end
    expect(s).toMatchObject({ x: 252, confirmed: true, dragging: false });
    expect(move(s, 10).x).toBe(252);
    expect(slideReducer(s, { type: 'end' }).confirmed).toBe(true);
    expect(slideReducer(s, { type: 'reset' })).toEqual(initialSlide());
  });
  it('keys: arrows a fifth of the travel, End to the end (confirms), Home or Escape back; others change nothing', () => {
    const key = (s: SlideState, k: string) =>
      slideReducer(s, { type: 'key', key: k, trackWidth: track, handleWidth: handle });
    const start = initialSlide();
    expect(key(start, 'ArrowRight').x).toBe(52);
    expect(key(key(start, 'ArrowUp'), 'ArrowLeft').x).toBe(2);
    expect(key(key(start, 'ArrowRight'), 'Home')).toEqual(initialSlide());
    expect(key(start, 'Escape')).toBe(start);
    expect(key(start, 'Enter')).toBe(start);
    const done = key(start, 'End');
    expect(done).toMatchObject({ x: 252, confirmed: true });
    expect(key(done, 'Escape')).toBe(done);
  });
  it('moves without a drag are ignored', () => {
    expect(move(initialSlide(), 200)).toEqual(initialSlide());
  });
  it('action delay 500 ms except delete', () => {
    expect(slideActionDelay('block')).toBe(500);
    expect(slideActionDelay('unlock')).toBe(500);
    expect(slideActionDelay('anchor')).toBe(500);
    expect(slideActionDelay('delete')).toBe(0);
  });
});
