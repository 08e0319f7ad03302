// Unit tests render any of the three languages synchronously: download them all once before the tests run.
import { loadAllLanguages } from '../src/i18n/index.ts';

await loadAllLanguages();
