// deviceFuelDrop / deviceFuelIncrease: the `fuel` attribute (litres; `fuelLevel` % when a device sends no `fuel`)
// compared with the device's last known value of the same key. A drop (increase) of at least
// `fuelDropThreshold` (`fuelIncreaseThreshold`), looked up device → group chain → server, gives one event;
// 0 or absent turns the check off. Positions without the attribute neither fire nor reset the comparison.
import { numeric, type HandlerInput } from './types.ts';

type FuelKey = 'fuel' | 'fuelLevel';
const EPSILON = 1e-9;

export class FuelTracker {
  /** deviceId → the last fuel reading seen (key and value). */
  private readonly last = new Map<number, { key: FuelKey; value: number }>();

  static reading(attrs: Record<string, unknown> | undefined): { key: FuelKey; value: number } | undefined {
    const fuel = numeric(attrs?.fuel);
    if (fuel !== undefined) return { key: 'fuel', value: fuel };
    const level = numeric(attrs?.fuelLevel);
    return level !== undefined ? { key: 'fuelLevel', value: level } : undefined;
  }

  handle({ cache, deviceId, prev, position, add }: HandlerInput): void {
    const now = FuelTracker.reading(position.attributes);
    if (!now) return;
    const before = this.last.get(deviceId) ?? FuelTracker.reading(prev?.attributes);
    this.last.set(deviceId, now);
    if (!before || before.key !== now.key) return;
    const change = now.value - before.value;
    if (change < 0) {
      const threshold = cache.deviceNumber(deviceId, 'fuelDropThreshold') ?? 0;
      if (threshold > 0 && -change >= threshold - EPSILON)
        add('deviceFuelDrop', { attributes: { [now.key]: now.value, previous: before.value } });
    } else if (change > 0) {
      const threshold = cache.deviceNumber(deviceId, 'fuelIncreaseThreshold') ?? 0;
      if (threshold > 0 && change >= threshold - EPSILON)
        add('deviceFuelIncrease', { attributes: { [now.key]: now.value, previous: before.value } });
    }
  }

  forget(deviceId: number): void {
    this.last.delete(deviceId);
  }
}
