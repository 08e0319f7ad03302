// The language walk's checks (web/e2e/texts-walk-checks.ts, issue #29) report one sample of each leak group the
// issue found in pt-BR, and in es where the group is the language's; clean texts of both languages pass.
import { describe, expect, it } from 'vitest';
import { leaksOf, type Segment } from '../e2e/texts-walk-checks.ts';
import type { WalkLocale } from '../e2e/walk-locales.ts';
import { tag } from '../e2e/map-helpers.ts';

const text = (t: string, kind = 'text'): Segment => ({ kind, text: t, where: 'test' });
const leaks = (t: string, locale: WalkLocale = 'pt-BR', kind = 'text') => leaksOf(text(t, kind), locale);

// [issue's group, sample, what the report says]
const GROUPS: [string, string, RegExp][] = [
  ['command type without text', '⟦types.alarmSos⟧', /missing text ⟦/],
  ['raw attribute key', 'batteryLevel 87', /raw attribute key "batteryLevel"/],
  ['raw lowercase key', 'ignition', /raw attribute key "ignition"/],
  ['boolean shown as is', 'Ignição true', /true\/false/],
  ['boolean shown as is (false)', 'Movimento: false', /true\/false/],
  ['decimal point', 'Bateria 3.91 V', /decimal point/],
  ['milliseconds as hours', 'Horímetro 42300000', /ungrouped number/],
  ['knots when none was chosen', '55,3 kn (limite 54 kn)', /knots/],
  ['knots in an Excel header', 'Velocidade média (kn)', /knots/],
  ['chart legend: ISO date and 12-hour time', 'Time: 2026-11-27 3:51pm', /ISO date.*12-hour time/],
  ['chart axis in 12 hours', '6am', /12-hour time/],
  ['US short date', '11/27/26', /US date/],
  ['chart maximum in knots with a point', 'máx 50.87 kn', /decimal point/],
  ['MapLibre control', 'Zoom in', /en-US text/],
  ['MapLibre attribution', 'Toggle attribution', /en-US text/],
  ['MapLibre canvas label', 'Map', /en-US text/],
  ['password toggle', 'Toggle password visibility', /en-US text/],
  ['device categories raw', 'bus, car, motorcycle, pickup, truck, van', /raw category "bus"/],
  ['plural after one', '1 mensagens enviadas', /plural after 1/],
  ['exception name before the message', 'SecurityException: Acesso negado', /exception name/],
  ['Traccar error in English', 'Write access denied', /en-US text/],
  ['Traccar error inside a text', 'Erro: Write access denied', /en-US text "Write access denied"/],
  ['changelog date as ISO', 'Versão 6.5 — 2026-11-27', /ISO date/],
  ['native date input pattern', 'mm/dd/yyyy', /US date/],
];

describe('texts-walk checks: each leak group of issue #29 is reported', () => {
  for (const [group, sample, report] of GROUPS)
    it(`${group}: "${sample}"`, () => {
      expect(leaks(sample).join('; ')).toMatch(report);
    });

  it('an en-US catalogue text on a pt-BR page', () => {
    expect(leaks('Speed')).toContain('en-US text');
  });

  it('a pt-BR text on an es page (a notification in the wrong language)', () => {
    expect(leaks('Velocidade', 'es')).toContain('pt-BR text');
  });

  it('Spanish samples of the same groups', () => {
    expect(leaks('1 mensajes', 'es')).toContain('plural after 1');
    expect(leaks('Batería 3.91 V', 'es')).toContain('decimal point');
    expect(leaks('máx 55,3 nudos', 'es')).toContain('knots');
  });
});

describe('texts-walk checks: clean texts pass', () => {
  const CLEAN_PT = [
    'Velocidade',
    'Bateria 87 %',
    'Ignição: Sim',
    'Movimento: Não',
    'Horímetro 11,8 h',
    'Bateria 3,91 V',
    '55,3 km/h (limite 54 km/h)',
    'Velocidade média (km/h)',
    '27/11/2026 15:51',
    '27/11/26',
    '42.300.000',
    'Ônibus, Carro, Moto, Picape, Caminhão, Van',
    '1 mensagem enviada',
    '2 mensagens enviadas',
    'Acesso negado',
    'Versão 6.5.1 — 27 de nov. de 2026',
    'Ampliar',
    'rastro-0001',
    'Mapa',
  ];
  for (const sample of CLEAN_PT)
    it(`pt-BR: "${sample}"`, () => {
      expect(leaks(sample)).toEqual([]);
    });

  const CLEAN_ES = ['Velocidad', '1 mes', '55,3 km/h', 'Autobús, Auto, Moto', '1 mensaje enviado'];
  for (const sample of CLEAN_ES)
    it(`es: "${sample}"`, () => {
      expect(leaks(sample, 'es')).toEqual([]);
    });

  it("an ISO date or a long number typed into a field is the person's value, not a leak", () => {
    expect(leaks('2026-11-27', 'pt-BR', 'value')).toEqual([]);
    expect(leaks('42300000', 'pt-BR', 'value')).toEqual([]);
  });
});

describe("texts-walk checks: the browser specs' own names", () => {
  it('a base-36 tag ending in a digit and "kn" reads as knots (what failed texts-walk in CI)', () => {
    expect(leaks('Quiet tmx1m4djh3kn')).toEqual(['knots']);
  });

  it("the specs' tags are hexadecimal, so no name made with one reads as a leak", () => {
    for (let i = 0; i < 200; i++) {
      const t = tag();
      expect(t).toMatch(/^t[0-9a-f]+$/);
      expect([...leaks(`Quiet ${t}`), ...leaks(`quiet-${t}@rastro.test`), ...leaks(`Parado 3 ${t}`)]).toEqual(
        [],
      );
    }
  });
});
