export { WeatherWidget, WIDGET_REFRESH_MS } from './WeatherWidget.tsx';
