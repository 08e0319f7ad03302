// The loaders of a feature's code together with the namespaces its screens and dialogs render with
// (i18n/namespaces.ts FEATURE_TEXTS): pages.tsx and dialogRegistry.ts use them.
import type { ComponentType } from 'react';
import { FEATURE_TEXTS } from '../i18n/namespaces.ts';
import { withTexts } from '../i18n/index.ts';

export type FeatureName = keyof typeof FEATURE_TEXTS;

/** A feature's code, resolved once its texts are there too. */
export const feature = <T>(name: FeatureName, code: Promise<T>): Promise<T> =>
  withTexts(FEATURE_TEXTS[name], code);

/** The loader of a lazy part: the component `name` of a feature's module, with the feature's texts. */
export const partOf =
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as React's own lazy<T extends ComponentType<any>>
  <K extends string, T extends ComponentType<any>>(
      texts: FeatureName,
      load: () => Promise<Record<K, T>>,
      name: K,
    ) =>
    () =>
      feature(texts, load()).then((m) => ({ default: m[name] }));
