export function DevicesPage() {
  return <div data-testid="devices-page" />;
}
