export * from './types.ts';
export * from './geo.ts';
