export { AssistantPage } from './AssistantPage.tsx';
