export { WeatherWidget } from './WeatherWidget.tsx';
