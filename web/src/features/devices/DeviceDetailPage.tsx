export function DeviceDetailPage() {
  return <div data-testid="device-detail-page" />;
}
