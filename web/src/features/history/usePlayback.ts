// Playback of a loaded route: a PlaybackClock driven by requestAnimationFrame. Every frame moves the vehicle on
// the map directly (outside React); React state (the frame shown in the panel) follows once per frame too, but
// only small components read it. Frame costs are kept for the benchmark (window.__rastroPlayback).
import {
  frameAt,
  PlaybackClock,
  playbackTimeline,
  type PlaybackFrame,
  type RoutePoint,
} from '@rastro/domain';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';

declare global {
  interface Window {
    __rastroPlayback?: {
      /** JS cost of each of the last frames (clock, interpolation, map source update), ms */
      costs(): number[];
      /** wall intervals between the last animation frames, ms */
      intervals(): number[];
      state(): { t: number; duration: number; playing: boolean; speed: number; index: number };
      play(): void;
      setSpeed(speed: number): void;
    };
  }
}

const KEEP = 2000;
const NOTHING_SHOWN = { frame: null, t: 0 };
/** Appends a measure, keeping the last KEEP. */
const keep = (list: number[], value: number) => list.push(value) > KEEP && list.shift();

export type Playback = ReturnType<typeof usePlayback>;

export function usePlayback(points: readonly RoutePoint[] | null, onFrame: (f: PlaybackFrame) => void) {
  // the fix times straight into a typed array: a plain array of 100,000 times would box each one (issue #31: this
  // memo runs on the main thread with each page of a long route)
  const timeline = useMemo(() => {
    const list = points ?? [];
    const times = new Float64Array(list.length);
    for (let i = 0; i < list.length; i++) times[i] = list[i].time;
    return playbackTimeline(times);
  }, [points]);
  const duration = timeline.length ? timeline[timeline.length - 1] : 0;
  const clock = useRef(new PlaybackClock(0));
  // the frame shown and its playback time, set together
  const [{ frame, t }, setShown] = useState<{ frame: PlaybackFrame | null; t: number }>(NOTHING_SHOWN);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeedState] = useState(1);
  const raf = useRef<number | null>(null);
  const onFrameRef = useRef(onFrame);
  onFrameRef.current = onFrame;
  const costs = useRef<number[]>([]);
  const intervals = useRef<number[]>([]);
  const lastWall = useRef<number | null>(null);

  const show = useCallback(
    (time: number) => {
      if (!points?.length) return;
      const f = frameAt(points, timeline, time);
      onFrameRef.current(f);
      setShown({ frame: f, t: time });
    },
    [points, timeline],
  );

  const stop = () => {
    if (raf.current !== null) cancelAnimationFrame(raf.current);
    raf.current = null;
    lastWall.current = null;
  };

  const loop = useCallback(
    (wall: number) => {
      const start = performance.now();
      if (lastWall.current !== null) keep(intervals.current, wall - lastWall.current);
      lastWall.current = wall;
      const c = clock.current;
      const time = c.tick(wall);
      show(time);
      keep(costs.current, performance.now() - start);
      if (c.playing) raf.current = requestAnimationFrame(loop);
      else {
        stop(); // the frame just run: nothing to cancel
        setPlaying(false);
      }
    },
    [show],
  );

  // a new route: back to its start, paused
  useEffect(() => {
    stop();
    costs.current = [];
    intervals.current = [];
    clock.current = new PlaybackClock(duration);
    clock.current.speed = speed;
    setPlaying(false);
    if (points?.length) show(0);
    else setShown(NOTHING_SHOWN);
    // speed is carried over on purpose, not a dependency
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [points, timeline, duration, show]);

  useEffect(() => stop, []);

  const play = useCallback(() => {
    if (!points?.length) return;
    clock.current.play(performance.now());
    setPlaying(true);
    stop();
    raf.current = requestAnimationFrame(loop);
  }, [points, loop]);

  const pause = useCallback(() => {
    clock.current.pause();
    stop();
    setPlaying(false);
  }, []);

  const setSpeed = useCallback((s: number) => {
    clock.current.setSpeed(s, performance.now());
    setSpeedState(s);
  }, []);

  const seek = useCallback(
    (time: number) => {
      clock.current.seek(time);
      if (clock.current.playing) clock.current.play(performance.now());
      show(clock.current.t);
    },
    [show],
  );

  const seekIndex = useCallback((i: number) => seek(timeline[i] ?? 0), [seek, timeline]);

  useEffect(() => {
    window.__rastroPlayback = {
      costs: () => [...costs.current],
      intervals: () => [...intervals.current],
      state: () => ({
        t: clock.current.t,
        duration: clock.current.duration,
        playing: clock.current.playing,
        speed: clock.current.speed,
        index: frame?.index ?? -1,
      }),
      play,
      setSpeed,
    };
  });
  useEffect(() => () => void delete window.__rastroPlayback, []);

  return { frame, t, duration, playing, speed, timeline, play, pause, setSpeed, seek, seekIndex };
}
