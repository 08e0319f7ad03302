// One simulated vehicle: drives block by block along the generated streets, halts at corners, parks with the
// ignition off (through the night too), and reports what a real tracker sends (OsmAnd-style attributes).
import { kmhToKnots, kmhToMps, mpsToKmh, type LatLon } from '@rastro/domain';
import { LIMIT_KMH, nearestNode, randomNode, route, toLatLon, type Leg, type Node } from './city.ts';
import { PROFILES, type CatalogEntry, type Profile } from './catalog.ts';
import { createRng, hashSeed, type Rng } from './rng.ts';

export const ALARMS = ['sos', 'powerCut', 'lowBattery', 'vibration', 'tampering', 'jamming'] as const;
/** Harsh manoeuvres a driving tracker reports now and then (Traccar's alarm values). */
const HARSH = ['hardBraking', 'hardAcceleration', 'hardCornering'] as const;
/** Local time offset of São Paulo (UTC−3, no daylight saving since 2019), for the night parking. */
const LOCAL_OFFSET_MS = -3 * 3600_000;

export interface Report {
  fixTime: Date;
  latitude: number;
  longitude: number;
  altitude: number;
  /** knots */
  speed: number;
  course: number;
  accuracy: number;
  attributes: Record<string, unknown>;
}

type Phase = 'driving' | 'halt' | 'parked';

export class Vehicle {
  readonly rng: Rng;
  /** Its own stream for harsh manoeuvres, so they leave the rest of the demo unchanged. */
  private readonly harshRng: Rng;
  readonly profile: Profile;
  private node: Node;
  private legs: Leg[] = [];
  private legIndex = 0;
  private legDone = 0;
  private phase: Phase = 'parked';
  private until = 0;
  private speed = 0; // m/s
  private course = 0;
  private position: LatLon;
  private fuel: number;
  private batteryLevel: number;
  /** true once the driver is a "hurried" one: up to 25 % over the street limit */
  private readonly hurried: boolean;
  blocked = false;
  private lastReport = -Infinity;
  private pendingAlarm: string | null = null;
  private driverIndex: number;
  /** Being carried away with the ignition off (a demo towing for the monitoring center, incidents.ts). */
  private towed = false;
  private readonly towRng: Rng;

  constructor(
    readonly entry: CatalogEntry,
    seed: number,
    readonly drivers: string[],
  ) {
    this.rng = createRng(hashSeed('vehicle', seed, entry.index));
    this.harshRng = createRng(hashSeed('harsh', seed, entry.index));
    this.towRng = createRng(hashSeed('tow', seed, entry.index));
    this.profile = PROFILES[entry.category];
    this.node = randomNode(this.rng, { i: 0, j: 0 }, 45);
    this.position = toLatLon(this.node);
    this.fuel = this.profile.tank * this.rng.range(0.4, 1);
    this.batteryLevel = this.rng.int(70, 100);
    this.hurried = this.rng.chance(0.3);
    this.driverIndex = drivers.length ? (entry.index - 1) % drivers.length : -1;
  }

  get moving(): boolean {
    return this.phase !== 'parked' && this.speed > 0.5;
  }

  get ignition(): boolean {
    return this.phase !== 'parked' && !this.blocked;
  }

  /** Continues from the intersection nearest to a stored position (after a restart). */
  placeAt(p: LatLon): void {
    this.node = nearestNode(p);
    this.position = toLatLon(this.node);
  }

  /** Parked, not blocked, not already towed: may be towed away (incidents.ts). */
  get towable(): boolean {
    return this.phase === 'parked' && !this.blocked && !this.towed;
  }

  /** Starts a towing: carried with the ignition off at about 25 km/h to a corner 4 or more blocks away. */
  startTowing(): boolean {
    if (!this.towable) return false;
    let to = randomNode(this.towRng, this.node, 6);
    if (Math.abs(to.i - this.node.i) + Math.abs(to.j - this.node.j) < 4)
      to = { i: this.node.i + (this.node.i > 0 ? -5 : 5), j: this.node.j };
    this.legs = route(this.node, to);
    this.node = to;
    this.legIndex = 0;
    this.legDone = 0;
    this.towed = true;
    return true;
  }

  /** Advances the simulation to `now` by `dt` seconds. */
  step(now: number, dt: number): void {
    const rng = this.rng;
    if (this.towed) {
      this.speed = kmhToMps(25);
      this.advance(dt);
      if (this.legIndex >= this.legs.length) {
        this.towed = false;
        this.park(now);
      }
      return;
    }
    if (this.blocked) {
      this.speed = Math.max(0, this.speed - 6 * dt);
      this.advance(dt);
      return;
    }
    if (this.phase === 'parked') {
      if (now < this.until) return;
      this.startTrip(now);
    }
    if (this.phase === 'halt') {
      if (now < this.until) return;
      this.phase = 'driving';
    }
    const leg = this.legs[this.legIndex];
    if (!leg) {
      this.park(now);
      return;
    }
    const limit = LIMIT_KMH[leg.kind];
    const factor = this.hurried ? rng.range(0.95, 1.25) : rng.range(0.7, 1.05);
    const target = kmhToMps(Math.min(this.profile.maxKmh, limit * factor));
    this.speed = Math.max(0, this.speed + Math.max(-3 * dt, Math.min(2 * dt, target - this.speed)));
    this.advance(dt);
    // traffic lights and congestion: short halts that do not end a trip
    if (leg.kind !== 'expressway' && rng.chance(0.03 * (dt / 5))) {
      this.phase = 'halt';
      this.speed = 0;
      this.until = now + rng.range(15, 90) * 1000;
    }
  }

  private advance(dt: number): void {
    let remaining = this.speed * dt;
    while (remaining > 0 && this.legIndex < this.legs.length) {
      const leg = this.legs[this.legIndex];
      const left = leg.length - this.legDone;
      const f = Math.min(1, (this.legDone + Math.min(remaining, left)) / leg.length);
      this.course = leg.course;
      this.position = {
        latitude: leg.from.latitude + (leg.to.latitude - leg.from.latitude) * f,
        longitude: leg.from.longitude + (leg.to.longitude - leg.from.longitude) * f,
      };
      if (remaining >= left) {
        remaining -= left;
        this.legIndex++;
        this.legDone = 0;
      } else {
        this.legDone += remaining;
        remaining = 0;
      }
    }
    this.fuel = Math.max(0, this.fuel - ((this.speed * dt) / 100_000) * this.profile.consumption);
  }

  private startTrip(now: number): void {
    const destination = randomNode(this.rng, this.node, 30);
    this.legs = route(this.node, destination);
    this.node = destination;
    this.legIndex = 0;
    this.legDone = 0;
    this.phase = 'driving';
    this.until = now;
    if (this.fuel < this.profile.tank * 0.15) this.fuel = this.profile.tank * this.rng.range(0.85, 1);
    if (this.drivers.length && this.rng.chance(0.1))
      this.driverIndex = this.rng.int(0, this.drivers.length - 1);
  }

  private park(now: number): void {
    this.phase = 'parked';
    this.speed = 0;
    const [min, max] = this.profile.parkMin;
    let until = now + this.rng.range(min, max) * 60_000;
    // overnight: parked from 22:00 until 06:00–07:30 local time
    const local = new Date(now + LOCAL_OFFSET_MS);
    const hour = local.getUTCHours();
    if (hour >= 22 || hour < 6) {
      const morning = Date.UTC(
        local.getUTCFullYear(),
        local.getUTCMonth(),
        local.getUTCDate() + (hour >= 22 ? 1 : 0),
        6,
      );
      until = Math.max(until, morning - LOCAL_OFFSET_MS + this.rng.range(0, 90) * 60_000);
    }
    this.until = until;
  }

  setBlocked(blocked: boolean): void {
    this.blocked = blocked;
  }

  /** Whether a report is due: every tick while the engine runs, every `parkedEvery` ms while parked. */
  due(now: number, parkedEvery: number): boolean {
    if (this.phase !== 'parked' || this.blocked || this.towed) return true;
    return now - this.lastReport >= parkedEvery;
  }

  report(now: number): Report {
    const rng = this.rng;
    this.lastReport = now;
    const ignition = this.ignition;
    const kmh = mpsToKmh(this.speed);
    const attributes: Record<string, unknown> = {
      ignition,
      blocked: this.blocked,
      power: ignition ? round(rng.range(13.6, 14.3), 2) : round(rng.range(12.2, 12.7), 2),
      battery: round(rng.range(3.9, 4.2), 2),
      batteryLevel: this.batteryLevel,
      sat: rng.int(ignition ? 7 : 5, 14),
      rssi: rng.int(2, 5),
      fuel: round(this.fuel, 1),
      rpm: ignition ? Math.round(kmh > 1 ? 900 + kmh * 28 + rng.range(-100, 100) : rng.range(700, 850)) : 0,
    };
    // the assigned driver stays on the device while parked (a new one may take over at the next trip)
    if (this.driverIndex >= 0) attributes.driverUniqueId = this.drivers[this.driverIndex];
    if (this.pendingAlarm) {
      attributes.alarm = this.pendingAlarm;
      if (this.pendingAlarm === 'powerCut') attributes.power = 0;
      if (this.pendingAlarm === 'lowBattery') attributes.batteryLevel = rng.int(5, 15);
      this.pendingAlarm = null;
    } else if (rng.chance(0.0015)) {
      const alarm =
        this.phase === 'parked' ? rng.pick(ALARMS) : rng.pick(ALARMS.filter((a) => a !== 'vibration'));
      attributes.alarm = alarm;
      if (alarm === 'powerCut') attributes.power = 0;
      if (alarm === 'lowBattery') attributes.batteryLevel = rng.int(5, 15);
    }
    // now and then a harsh manoeuvre, as trackers report them (more often for a hurried driver): the scores' data
    if (!attributes.alarm && this.phase === 'driving' && kmh > 20) {
      if (this.harshRng.chance(this.hurried ? 0.006 : 0.0015)) attributes.alarm = this.harshRng.pick(HARSH);
    }
    return {
      fixTime: new Date(now),
      latitude: round(this.position.latitude, 6),
      longitude: round(this.position.longitude, 6),
      altitude: round(760 + rng.range(-15, 15), 1),
      speed: round(kmhToKnots(kmh), 2),
      course: Math.round(this.course),
      accuracy: round(rng.range(3, 12), 1),
      attributes,
    };
  }

  /** Forces an alarm on the next report (tests, demos). */
  raiseAlarm(alarm: string): void {
    this.pendingAlarm = alarm;
  }
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;
