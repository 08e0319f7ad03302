import { describe, expect, it } from 'vitest';
import {
  BLOCK_MAX_SPEED_DEFAULT_KMH,
  blockMaxSpeed,
  engineBlockDecision,
  engineLogLabelKey,
  forceRequested,
  formatSpeedAge,
  INTERLOCK_FRESH_MS,
  speedAge,
  speedAgeParts,
  withoutForce,
  type InterlockInput,
} from '../src/engineInterlock.ts';
import { formatMessage } from '../src/messages.ts';
import { kmhToKnots } from '../src/units.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const ago = (min: number, sec = 0) => new Date(NOW - (min * 60 + sec) * 1000).toISOString();
const at = (kmh: number, fixTime: string = ago(0, 10)) => ({ fixTime, speed: kmhToKnots(kmh) });
const decide = (over: Partial<InterlockInput>) =>
  engineBlockDecision({
    position: at(30),
    now: NOW,
    limitKmh: 20,
    isAdmin: false,
    force: false,
    ...over,
  });

describe('engine-block interlock', () => {
  it('speed boundary: 20 km/h against a 20 km/h limit is allowed, 20.1 km/h is refused', () => {
    expect(decide({ position: at(20) })).toMatchObject({
      allowed: true,
      reason: 'withinLimit',
      speedKmh: 20,
    });
    expect(decide({ position: at(20.1) })).toMatchObject({
      allowed: false,
      reason: 'tooFast',
      speedKmh: 20.1,
      limitKmh: 20,
    });
  });

  it('age boundary: a fast position 4:59 old blocks, 5:01 old does not (exactly 5:00 still counts as fresh)', () => {
    expect(decide({ position: at(30, ago(4, 59)) }).allowed).toBe(false);
    expect(decide({ position: at(30, ago(5, 0)) }).allowed).toBe(false);
    expect(decide({ position: at(30, ago(5, 1)) })).toMatchObject({
      allowed: true,
      reason: 'stale',
      speedKmh: 30,
    });
  });

  it('no position does not block; a fix time in the future or unreadable counts as fresh', () => {
    expect(decide({ position: null })).toMatchObject({ allowed: true, reason: 'noPosition', speedKmh: null });
    expect(decide({ position: at(30, new Date(NOW + 60_000).toISOString()) }).allowed).toBe(false);
    expect(decide({ position: { fixTime: 'garbage', speed: kmhToKnots(30) } }).allowed).toBe(false);
    expect(decide({ position: { fixTime: NOW - 1000, speed: null } }).allowed).toBe(true);
  });

  it('force: an administrator overrides a refusal (forced), a non-administrator force is ignored', () => {
    expect(decide({ isAdmin: true, force: true })).toMatchObject({
      allowed: true,
      forced: true,
      speedKmh: 30,
    });
    expect(decide({ isAdmin: false, force: true })).toMatchObject({
      allowed: false,
      forced: false,
      forceIgnored: true,
    });
    // force on a block that would go anyway is not recorded as forced
    expect(decide({ isAdmin: true, force: true, position: at(15) })).toMatchObject({
      allowed: true,
      forced: false,
    });
    // an administrator without force is refused like anyone
    expect(decide({ isAdmin: true }).allowed).toBe(false);
  });

  it('limit 0 blocks only a stopped vehicle; limit 40 lets 30 km/h through', () => {
    expect(decide({ limitKmh: 0, position: at(0) }).allowed).toBe(true);
    expect(decide({ limitKmh: 0, position: at(0.1) }).allowed).toBe(false);
    expect(decide({ limitKmh: 40 }).allowed).toBe(true);
  });

  it('reads {ns}.blockMaxSpeed (number or text ≥ 0), else 20', () => {
    expect(blockMaxSpeed({}, 'rastro')).toBe(BLOCK_MAX_SPEED_DEFAULT_KMH);
    expect(blockMaxSpeed(null, 'rastro')).toBe(20);
    expect(blockMaxSpeed({ 'rastro.blockMaxSpeed': 40 }, 'rastro')).toBe(40);
    expect(blockMaxSpeed({ 'rastro.blockMaxSpeed': '0' }, 'rastro')).toBe(0);
    expect(blockMaxSpeed({ 'rastro.blockMaxSpeed': -5 }, 'rastro')).toBe(20);
    expect(blockMaxSpeed({ 'rastro.blockMaxSpeed': 'fast' }, 'rastro')).toBe(20);
    expect(blockMaxSpeed({ 'other.blockMaxSpeed': 40 }, 'rastro')).toBe(20);
    expect(blockMaxSpeed({ 'other.blockMaxSpeed': 40 }, 'other')).toBe(40);
  });

  it('force flag: true or "true"; removed from what the device receives', () => {
    expect(forceRequested({ force: true })).toBe(true);
    expect(forceRequested({ force: 'true' })).toBe(true);
    expect(forceRequested({ force: false })).toBe(false);
    expect(forceRequested({})).toBe(false);
    expect(withoutForce({ force: true, data: 'x' })).toEqual({ data: 'x' });
  });

  it('log labels: command.<type>.<outcome> for engine commands only', () => {
    expect(engineLogLabelKey({ type: 'engineStop', outcome: 'refused', speed: 30 })).toBe(
      'command.engineStop.refused',
    );
    expect(engineLogLabelKey({ type: 'engineResume', outcome: 'sent' })).toBe('command.engineResume.sent');
    expect(engineLogLabelKey({ type: 'custom', outcome: 'sent' })).toBeNull();
    expect(engineLogLabelKey({ type: 'engineStop', outcome: 'weird' })).toBeNull();
    expect(engineLogLabelKey(undefined)).toBeNull();
  });

  it('the refusal names the device, the speed and the limit in each language', () => {
    const values = { name: 'Truck 1', speed: '30', limit: '20' };
    expect(formatMessage('denied.engineBlockMoving', 'en-US', values)).toBe(
      'Engine block refused for Truck 1: it is moving at 30 km/h, above the 20 km/h limit for blocking',
    );
    expect(formatMessage('denied.engineBlockMoving', 'pt-BR', values)).toContain('30 km/h');
    expect(formatMessage('denied.engineBlockMoving', 'es', values)).toContain('20 km/h');
  });
});

describe('the age of the interlock speed (dialog and device log)', () => {
  it('a speed is old past 5 minutes; its age is kept in ms; no position, no age', () => {
    expect(INTERLOCK_FRESH_MS).toBe(5 * 60_000);
    expect(speedAge(at(30, ago(5)), NOW)).toEqual({ speedKmh: 30, ageMs: 5 * 60_000, old: false });
    expect(speedAge(at(30, ago(5, 1)), NOW)).toEqual({ speedKmh: 30, ageMs: 301_000, old: true });
    expect(speedAge(at(12.34, ago(12)), NOW)).toMatchObject({
      speedKmh: 12.3,
      ageMs: 12 * 60_000,
      old: true,
    });
    expect(speedAge(null, NOW)).toBeNull();
    // unreadable or future times count as fresh (the safe side)
    expect(speedAge(at(30, 'not a date'), NOW)).toEqual({ speedKmh: 30, ageMs: null, old: false });
    expect(speedAge(at(30, new Date(NOW + 60_000).toISOString()), NOW)).toMatchObject({
      ageMs: 0,
      old: false,
    });
  });

  it('the decision carries the same age, and a stale speed is still allowed', () => {
    expect(decide({ position: at(30, ago(12)) })).toMatchObject({
      allowed: true,
      reason: 'stale',
      speedKmh: 30,
      speedAgeMs: 12 * 60_000,
    });
    expect(decide({ position: null })).toMatchObject({ speedAgeMs: null });
  });

  it("the age reads in minutes, then hours, then days, in the reader's language", () => {
    expect(speedAgeParts(12 * 60_000 + 59_000)).toEqual({ value: 12, unit: 'minute' });
    expect(speedAgeParts(3 * 3_600_000 + 5 * 60_000)).toEqual({ value: 3, unit: 'hour' });
    expect(speedAgeParts(3 * 86_400_000)).toEqual({ value: 3, unit: 'day' });
    expect(formatSpeedAge(12 * 60_000, 'pt-BR')).toBe('há 12 minutos');
    expect(formatSpeedAge(2 * 3_600_000, 'es')).toBe('hace 2 horas');
    expect(formatSpeedAge(12 * 60_000, 'en-US')).toBe('12 minutes ago');
  });
});
