// The desk's ringing (issue #32): while an alarm is open (nobody acknowledged it) the alarm sound plays now and
// every REPEAT_MS, unless the app is muted (the header's mute toggle); it stops once none is open. Tests read
// window.__rastroAlarmSound: whether the repeat is scheduled and how many times it played.
export const REPEAT_MS = 15_000;

export interface SoundLoopDeps {
  play: () => void;
  muted: () => boolean;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

declare global {
  interface Window {
    /** Test hook: the monitoring desk's repeating alarm sound. */
    __rastroAlarmSound?: { scheduled(): boolean; plays(): number };
  }
}

export class AlarmSoundLoop {
  private timer: unknown = null;
  /** Sounds played (a muted tick does not count). */
  plays = 0;

  constructor(private readonly deps: SoundLoopDeps) {}

  get scheduled(): boolean {
    return this.timer !== null;
  }

  /** Starts ringing when `ringing` and not yet, stops when not. */
  update(ringing: boolean): void {
    if (ringing && this.timer === null) this.tick();
    else if (!ringing) this.stop();
  }

  stop(): void {
    if (this.timer !== null) (this.deps.clearTimer ?? ((h) => clearTimeout(h as number)))(this.timer);
    this.timer = null;
  }

  private tick(): void {
    if (!this.deps.muted()) {
      this.plays++;
      this.deps.play();
    }
    this.timer = (this.deps.setTimer ?? setTimeout)(() => this.tick(), REPEAT_MS);
  }
}
