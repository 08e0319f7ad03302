export function MapView() {
  return <div data-testid="map-view" style={{ position: 'absolute', inset: 0 }} />;
}
