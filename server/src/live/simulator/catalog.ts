// The demo fleet's devices, derived from their index alone: uniqueId rastro-0001, rastro-0002, … and a
// category, model, plate, colour, tracker brand and speed limit that are the same on every start.
import { kmhToKnots } from '@rastro/domain';
import { createRng, hashSeed } from './rng.ts';

export type Category = 'car' | 'truck' | 'motorcycle' | 'van' | 'pickup' | 'bus';

export interface Profile {
  /** top speed, km/h */
  maxKmh: number;
  /** device speedLimit attribute, km/h (overspeed events above it) */
  limitKmh: number;
  /** litres */
  tank: number;
  /** litres per 100 km */
  consumption: number;
  /** parking time range, minutes */
  parkMin: [number, number];
}

export const PROFILES: Record<Category, Profile> = {
  car: { maxKmh: 110, limitKmh: 100, tank: 50, consumption: 9, parkMin: [5, 45] },
  motorcycle: { maxKmh: 105, limitKmh: 100, tank: 14, consumption: 3, parkMin: [3, 30] },
  pickup: { maxKmh: 105, limitKmh: 100, tank: 70, consumption: 12, parkMin: [5, 50] },
  van: { maxKmh: 95, limitKmh: 90, tank: 80, consumption: 13, parkMin: [5, 40] },
  truck: { maxKmh: 85, limitKmh: 80, tank: 400, consumption: 35, parkMin: [10, 90] },
  bus: { maxKmh: 75, limitKmh: 70, tank: 300, consumption: 40, parkMin: [3, 20] },
};

const CYCLE: Category[] = [
  'car',
  'truck',
  'motorcycle',
  'van',
  'pickup',
  'car',
  'bus',
  'truck',
  'car',
  'van',
  'motorcycle',
  'pickup',
];

const MODELS: Record<Category, string[]> = {
  car: ['Chevrolet Onix', 'Hyundai HB20', 'VW Gol', 'Fiat Argo', 'Toyota Corolla', 'Renault Kwid'],
  truck: ['Volvo FH 540', 'Scania R450', 'Mercedes Actros', 'VW Constellation'],
  motorcycle: ['Honda CG 160', 'Yamaha Fazer 250', 'Honda Biz 125'],
  van: ['Fiat Ducato', 'Renault Master', 'Mercedes Sprinter'],
  pickup: ['Fiat Strada', 'Toyota Hilux', 'Chevrolet S10'],
  bus: ['Mercedes OF-1721', 'Volvo B270F', 'Marcopolo Torino'],
};

const COLORS = ['#1e88e5', '#e53935', '#43a047', '#fb8c00', '#8e24aa', '#00897b', '#6d4c41', '#546e7a'];
const TRACKERS: Array<[brand: string, model: string, technology: string]> = [
  ['Suntech', 'ST310U', '2G'],
  ['Teltonika', 'FMC130', '4G'],
  ['Queclink', 'GV300', '3G'],
  ['Concox', 'GT06N', '2G'],
  ['Teltonika', 'FMB920', '4G'],
  ['Positron', 'PST-PX40', 'LTE-M'],
];

/** How a simulated device behaves: `silent` never reports, `lost` reports briefly after start then goes quiet. */
export type Behaviour = 'normal' | 'silent' | 'lost';

export interface CatalogEntry {
  index: number;
  uniqueId: string;
  name: string;
  category: Category;
  model: string;
  plate: string;
  phone: string;
  behaviour: Behaviour;
  attributes: Record<string, unknown>;
}

export const uniqueIdOf = (index: number) => `rastro-${String(index).padStart(4, '0')}`;

/** The index of a simulated uniqueId, or 0. */
export function indexOf(uniqueId: string): number {
  const m = /^rastro-(\d{4,})$/.exec(uniqueId);
  return m ? Number(m[1]) : 0;
}

export function behaviourOf(index: number): Behaviour {
  if (index % 10 === 0) return 'silent';
  if (index % 20 === 15) return 'lost';
  return 'normal';
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function catalogEntry(index: number, seed: number, ns: string): CatalogEntry {
  const rng = createRng(hashSeed('catalog', seed, index));
  const category = CYCLE[(index - 1) % CYCLE.length];
  const model = rng.pick(MODELS[category]);
  const plate =
    rng.pick([...LETTERS]) +
    rng.pick([...LETTERS]) +
    rng.pick([...LETTERS]) +
    rng.int(0, 9) +
    rng.pick([...LETTERS]) +
    String(rng.int(0, 99)).padStart(2, '0');
  const [gpsBrand, gpsModel, technology] = rng.pick(TRACKERS);
  const behaviour = behaviourOf(index);
  const profile = PROFILES[category];
  const phone = `+55 11 9${rng.int(1000, 9999)}-${rng.int(1000, 9999)}`;
  return {
    index,
    uniqueId: uniqueIdOf(index),
    name: `${model} ${plate}`,
    category,
    model,
    plate,
    phone,
    behaviour,
    attributes: {
      placa: plate,
      [`${ns}.color`]: COLORS[(index - 1) % COLORS.length],
      'device.state':
        behaviour === 'silent' ? rng.pick(['in_stock', 'with_failures', 'installed']) : 'in_service',
      'device.gpsBrand': gpsBrand,
      'device.model': gpsModel,
      'device.technology': technology,
      fuelCapacity: profile.tank,
      speedLimit: Math.round(kmhToKnots(profile.limitKmh) * 100) / 100,
    },
  };
}
