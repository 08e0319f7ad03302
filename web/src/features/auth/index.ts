export { DriverLoginPage, LoginPage } from './LoginPage.tsx';
export { RegisterPage } from './RegisterPage.tsx';
export { RecoverPage } from './RecoverPage.tsx';
export { SharePage } from './SharePage.tsx';
export { MaintenancePage } from './MaintenancePage.tsx';
