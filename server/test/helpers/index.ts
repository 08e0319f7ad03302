export * from './app.ts';
export * from './samples.ts';
