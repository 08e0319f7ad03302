import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { FALLBACK_LOCALE, i18n, loadLanguage, type Locale } from './i18n/index.ts';

document.documentElement.lang = i18n.language;

// The active language's texts before the first render; the fallback language after it, off the critical path.
void loadLanguage(i18n.language as Locale).then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  void loadLanguage(FALLBACK_LOCALE);
});
