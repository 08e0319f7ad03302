export * from './types.ts';
export * from './geo.ts';
export * from './schemas/index.ts';
