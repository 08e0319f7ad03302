export * from './app.ts';
export * from './samples.ts';
export * from './live.ts';
export * from './gateway.ts';
export * from './store.ts';
