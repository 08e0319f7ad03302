// The white-label theme editor (dialog `theme`). BrandMantineProvider (shell/Providers.tsx) and LoginBackground
// (features/auth/AuthLayout.tsx) are imported from their own files so the dialog stays out of those bundles.
export { ThemeDialog } from './ThemeDialog.tsx';
