// The domain's message catalogue in the three languages, loaded as a chunk of its own by ./index.ts.
export { defaultMessages, nestMessages } from '@rastro/domain';
