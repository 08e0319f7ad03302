import { describe, expect, it } from 'vitest';
import {
  appendRoutePage,
  colourRuns,
  historyMarkOptions,
  frameAt,
  indexAt,
  lerpCourse,
  parseRoute,
  parseRouteExtent,
  PLAYBACK_BASE_RATE,
  PLAYBACK_MAX_GAP_MS,
  PlaybackClock,
  playbackTimeline,
  routeToCsv,
  routeToGpx,
  routeSpeedScale,
  routeToKml,
  SPEED_COLORS,
  speedBucket,
  speedColor,
  summariseRoute,
  type RoutePoint,
} from '../src/index.ts';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const pos = (id: number, sec: number, lat: number, lon: number, speed = 0, course = 0) => ({
  id,
  deviceId: 7,
  latitude: lat,
  longitude: lon,
  course,
  speed,
  altitude: 10,
  fixTime: new Date(T0 + sec * 1000).toISOString(),
  address: id === 2 ? 'Rua "A", 1' : null,
  attributes: {},
});

function points(): RoutePoint[] {
  const r = parseRoute([
    pos(1, 0, -23.5, -46.6, 0, 350),
    pos(2, 10, -23.4, -46.5, 20, 10),
    pos(3, 30, -23.4, -46.3, 40, 90),
  ]);
  if (!r.ok) throw new Error(r.error);
  return r.points;
}

describe('route load (SPEC §5, §8)', () => {
  it('needs a response that is an array', () => {
    expect(parseRoute(null)).toEqual({ ok: false, error: 'route.invalidResponse' });
    expect(parseRoute('')).toEqual({ ok: false, error: 'route.invalidResponse' });
    expect(parseRoute({ a: 1 })).toEqual({ ok: false, error: 'route.invalidData' });
  });
  it('an empty period is the no-data message', () => {
    expect(parseRoute([])).toEqual({ ok: false, error: 'route.noData' });
  });
  it('rejects elements that are not positions', () => {
    expect(parseRoute([{ id: 1, latitude: 'x', longitude: 0, fixTime: '2026-01-01T00:00:00Z' }])).toEqual({
      ok: false,
      error: 'route.invalidData',
    });
    expect(parseRoute([{ ...pos(1, 0, 95, 0) }])).toEqual({ ok: false, error: 'route.invalidData' });
    expect(parseRoute([{ ...pos(1, 0, 0, 0), fixTime: 'never' }])).toEqual({
      ok: false,
      error: 'route.invalidData',
    });
  });
  it('keeps latitude, longitude, id and course in time order', () => {
    const r = parseRoute([pos(2, 10, 1, 2, 5, 45), pos(1, 0, 3, 4)]);
    expect(r.ok && r.points.map((p) => [p.id, p.latitude, p.longitude, p.course])).toEqual([
      [1, 3, 4, 0],
      [2, 1, 2, 45],
    ]);
  });
});

describe('speed colouring', () => {
  it('splits 0…max into 8 buckets, green to red', () => {
    expect(SPEED_COLORS).toHaveLength(8);
    expect(speedBucket(0, 80)).toBe(0);
    expect(speedBucket(9.99, 80)).toBe(0);
    expect(speedBucket(10, 80)).toBe(1);
    expect(speedBucket(40, 80)).toBe(4);
    expect(speedBucket(80, 80)).toBe(7);
    expect(speedBucket(120, 80)).toBe(7);
    expect(speedBucket(50, 0)).toBe(0);
    expect(speedColor(80, 80)).toBe('#d73027');
    expect(speedColor(0, 80)).toBe('#1a9850');
  });
  it('groups consecutive segments of one colour into runs sharing their joints', () => {
    const ps = points(); // speeds 0, 20, 40: segment means 10 and 30 of max 40 ⇒ buckets 2 and 6
    const runs = colourRuns(ps);
    expect(runs).toHaveLength(2);
    expect(runs[0]).toEqual({
      color: SPEED_COLORS[2],
      coordinates: [
        [-46.6, -23.5],
        [-46.5, -23.4],
      ],
    });
    expect(runs[1].color).toBe(SPEED_COLORS[6]);
    expect(runs[1].coordinates[0]).toEqual(runs[0].coordinates[1]);
    const flat = ps.map((p) => ({ ...p, speed: 10 }));
    expect(colourRuns(flat)).toHaveLength(1);
    expect(colourRuns(flat)[0].coordinates).toHaveLength(3);
  });
  it("a fixed scale: the device's speed limit, else a round top in the person's unit; a speed's colour does not depend on the route", () => {
    expect(routeSpeedScale('kmh', 43.2)).toBe(43.2);
    expect(routeSpeedScale('kmh', '50')).toBe(50);
    expect(routeSpeedScale('kmh')).toBeCloseTo(120 / 1.852, 6);
    expect(routeSpeedScale('mph', 0)).toBeCloseTo(75 / 1.150779, 3);
    expect(routeSpeedScale('kn', 'x')).toBe(65);
    const scale = routeSpeedScale('kmh');
    const slow = points().map((p) => ({ ...p, speed: 10 }));
    const faster = [...slow, { ...slow[2], id: 4, time: slow[2].time + 1000, speed: 60 }];
    // the first two segments keep their colour when a faster point follows
    expect(colourRuns(faster, scale)[0]).toEqual(colourRuns(slow, scale)[0]);
    expect(colourRuns(slow, scale)[0].color).toBe(speedColor(10, scale));
  });
});

describe('route extent header', () => {
  it('reads west,south,east,north; anything else is null', () => {
    expect(parseRouteExtent('-46.7,-23.6,-46.5,-23.4')).toEqual([-46.7, -23.6, -46.5, -23.4]);
    for (const bad of [
      null,
      undefined,
      '',
      '1,2,3',
      '1,2,3,4,5',
      'a,b,c,d',
      '2,0,1,1',
      '0,2,1,1',
      '0,-91,1,1',
      '1,,2,3',
    ])
      expect(parseRouteExtent(bad), String(bad)).toBeNull();
  });
});

describe('playback', () => {
  it('shortens long gaps on the timeline', () => {
    const tl = playbackTimeline([0, 10_000, 10_000 + 3_600_000, 10_000 + 3_630_000]);
    expect([...tl]).toEqual([0, 10_000, 10_000 + PLAYBACK_MAX_GAP_MS, 10_000 + PLAYBACK_MAX_GAP_MS + 30_000]);
  });
  it('finds the segment of a time by binary search', () => {
    const tl = [0, 10, 20, 30];
    expect(indexAt(tl, -5)).toBe(0);
    expect(indexAt(tl, 0)).toBe(0);
    expect(indexAt(tl, 15)).toBe(1);
    expect(indexAt(tl, 20)).toBe(2);
    expect(indexAt(tl, 99)).toBe(3);
    expect(indexAt([], 1)).toBe(-1);
  });
  it('interpolates position, course (short way) and speed by time', () => {
    const ps = points();
    const tl = playbackTimeline(ps.map((p) => p.time));
    const f = frameAt(ps, tl, 5_000); // half way between fix 1 (0 s) and fix 2 (10 s)
    expect(f.index).toBe(0);
    expect(f.fraction).toBeCloseTo(0.5);
    expect(f.latitude).toBeCloseTo(-23.45);
    expect(f.longitude).toBeCloseTo(-46.55);
    expect(f.course).toBeCloseTo(0); // 350 → 10 passes through north
    expect(f.speed).toBeCloseTo(10);
    expect(f.time).toBe(T0 + 5_000);
    const q = frameAt(ps, tl, 20_000); // a quarter between fix 2 (10 s) and 3 (30 s)... half: 10 of 20 s
    expect(q.index).toBe(1);
    expect(q.longitude).toBeCloseTo(-46.4);
    expect(q.course).toBeCloseTo(50);
    const end = frameAt(ps, tl, 1e9);
    expect(end.index).toBe(2);
    expect(end.longitude).toBe(-46.3);
    expect(lerpCourse(10, 350, 0.25)).toBeCloseTo(5);
  });
  it('the clock advances by wall time × speed × base rate and stops at the end', () => {
    const c = new PlaybackClock(120_000);
    expect(c.tick(1000)).toBe(0); // paused
    c.play(1000);
    expect(c.tick(1500)).toBe(500 * PLAYBACK_BASE_RATE); // 0.5 s wall at 1× = 30 s of route
    c.setSpeed(4, 1500);
    expect(c.tick(1600)).toBe(30_000 + 100 * 4 * PLAYBACK_BASE_RATE); // +24 s
    c.pause();
    expect(c.tick(5000)).toBe(54_000);
    c.seek(110_000);
    c.play(6000);
    expect(c.tick(7000)).toBe(120_000);
    expect(c.playing).toBe(false);
    c.play(8000); // at the end, play starts over
    expect(c.t).toBe(0);
    c.seek(-5);
    expect(c.t).toBe(0);
  });
});

describe('exports', () => {
  it('GPX 1.1 with one trkpt per point', () => {
    const gpx = routeToGpx('Car <1>', points());
    expect(gpx).toContain('<gpx version="1.1"');
    expect(gpx).toContain('<name>Car &lt;1&gt;</name>');
    expect(gpx.match(/<trkpt /g)).toHaveLength(3);
    expect(gpx).toContain(
      '<trkpt lat="-23.5" lon="-46.6"><ele>10</ele><time>2026-03-01T12:00:00.000Z</time>',
    );
  });
  it('KML line with lon,lat,alt coordinates and start/end marks', () => {
    const kml = routeToKml('Car', points());
    expect(kml).toContain('<coordinates>-46.6,-23.5,10 -46.5,-23.4,10 -46.3,-23.4,10</coordinates>');
    expect(kml.match(/<gx:coord>/g)).toHaveLength(3);
    expect(kml).toContain('<name>start</name>');
  });
  it('CSV with speed in the user unit and quoted text', () => {
    const csv = routeToCsv(points(), 'kmh');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Time,Latitude,Longitude,Speed (km/h),Course,Altitude,Address');
    expect(lines[2]).toBe('2026-03-01T12:00:10.000Z,-23.4,-46.5,37.04,10,10,"Rua ""A"", 1"'); // 20 kn = 37.04 km/h
    expect(lines).toHaveLength(4);
  });
  it('summary: count, period, distance and top speed', () => {
    const s = summariseRoute(points());
    expect(s.count).toBe(3);
    expect(s.to - s.from).toBe(30_000);
    expect(s.maxSpeed).toBe(40);
    expect(s.distance).toBeGreaterThan(30_000);
    expect(s.distance).toBeLessThan(40_000);
  });
});

describe('history marks (server settings show stops / show events)', () => {
  it('draws stops and events only when the administrator turned them on', () => {
    expect(historyMarkOptions({}, 'rastro')).toEqual({ stops: false, events: false });
    expect(historyMarkOptions(null, 'rastro')).toEqual({ stops: false, events: false });
    expect(historyMarkOptions({ 'rastro.showStops': true, 'rastro.showEvents': 'false' }, 'rastro')).toEqual({
      stops: true,
      events: false,
    });
    expect(historyMarkOptions({ 'rastro.showEvents': 'true', showStops: true }, 'rastro')).toEqual({
      stops: false,
      events: true,
    });
  });
});

describe('route pages (issue #31)', () => {
  const page = (ids: number[], secs: number[]) => {
    const r = parseRoute(ids.map((id, i) => pos(id, secs[i], -23.5 + i * 0.01, -46.6, i)));
    if (!r.ok) throw new Error(r.error);
    return r.points;
  };
  it('appends the next page after the points so far, without touching them', () => {
    const a = page([1, 2, 3], [0, 10, 20]);
    const b = page([4, 5], [30, 40]);
    const merged = appendRoutePage(a, b);
    expect(merged.map((p) => p.id)).toEqual([1, 2, 3, 4, 5]);
    expect(a.map((p) => p.id)).toEqual([1, 2, 3]);
    expect(merged[3]).toBe(b[0]);
    expect(appendRoutePage(merged, []).map((p) => p.id)).toEqual([1, 2, 3, 4, 5]);
    expect(appendRoutePage([], b).map((p) => p.id)).toEqual([4, 5]);
  });
  it('drops a point the seam already holds (same id) and keeps fix-time order, equal times stable', () => {
    const a = page([1, 2, 3], [0, 10, 20]);
    expect(appendRoutePage(a, page([3, 4], [20, 30])).map((p) => p.id)).toEqual([1, 2, 3, 4]);
    // same fix time, another position: kept, after the one already there
    expect(appendRoutePage(a, page([9, 4], [20, 30])).map((p) => p.id)).toEqual([1, 2, 3, 9, 4]);
    // a page that reaches back in time is sorted in
    expect(appendRoutePage(a, page([7, 8], [5, 25])).map((p) => p.id)).toEqual([1, 7, 2, 3, 8]);
  });
  it('the pages of a route together are the route read at once', () => {
    const raw = Array.from({ length: 25 }, (_, i) => pos(100 + i, i * 7, -23.5 + i * 0.001, -46.6, i % 9));
    const whole = parseRoute(raw);
    if (!whole.ok) throw new Error(whole.error);
    let merged: RoutePoint[] = [];
    for (let i = 0; i < raw.length; i += 4) {
      const r = parseRoute(raw.slice(i, i + 4));
      if (!r.ok) throw new Error(r.error);
      merged = appendRoutePage(merged, r.points);
    }
    expect(merged).toEqual(whole.points);
  });
  it('checks each point as the schema did: bad coordinates, ids, times, attributes are invalid data', () => {
    const ok = pos(1, 0, 1, 1);
    for (const bad of [
      { ...ok, id: 1.5 },
      { ...ok, id: '1' },
      { ...ok, deviceId: 'x' },
      { ...ok, latitude: 91 },
      { ...ok, longitude: -181 },
      { ...ok, latitude: null },
      { ...ok, speed: 'fast' },
      { ...ok, course: Infinity },
      { ...ok, fixTime: 'yesterday' },
      { ...ok, fixTime: 5 },
      { ...ok, address: 3 },
      { ...ok, attributes: [1] },
      { ...ok, attributes: 'x' },
      null,
      [ok],
    ])
      expect(parseRoute([ok, bad])).toEqual({ ok: false, error: 'route.invalidData' });
    const r = parseRoute([
      {
        ...ok,
        deviceId: undefined,
        speed: null,
        course: undefined,
        altitude: null,
        address: undefined,
        attributes: null,
      },
    ]);
    expect(r.ok && r.points[0]).toMatchObject({
      deviceId: 0,
      speed: 0,
      course: 0,
      altitude: 0,
      address: null,
      attributes: {},
    });
  });
});
