// The login errors of SPEC §8 (key = loginErrors.<CODE>): a module of their own, because the sign-in pages carry
// them from the start (a connection error must be worded even when nothing more can be downloaded), while the rest
// of the catalogue is fetched after the first paint.
import { w, type MessageLocale, type Wording } from './wording.ts';

export const LOGIN_ERROR_MESSAGES = {
  'loginErrors.HTTP_401_UNAUTHORIZED': w(
    'Invalid user and password combination',
    'Usuário ou senha inválidos',
    'Usuario o contraseña inválidos',
  ),
  'loginErrors.ACCOUNT_IS_SUSPENDED': w(
    'Account suspended for non-payment. Please contact support',
    'Conta suspensa por falta de pagamento. Entre em contato com o suporte',
    'Cuenta suspendida por falta de pago. Contacte al soporte',
  ),
  'loginErrors.ACCOUNT_IS_SUSPENDED_TRUST': w(
    'Account suspended. A trust unlock is available',
    'Conta suspensa. O desbloqueio de confiança está disponível',
    'Cuenta suspendida. El desbloqueo de confianza está disponible',
  ),
  'loginErrors.ACCOUNT_IS_DISABLED': w(
    'Account disabled. Please contact the administrator',
    'Conta desativada. Entre em contato com o administrador',
    'Cuenta desactivada. Contacte al administrador',
  ),
  'loginErrors.ACCOUNT_IS_BLOCKED': w(
    'Account disabled. Please contact the administrator',
    'Conta desativada. Entre em contato com o administrador',
    'Cuenta desactivada. Contacte al administrador',
  ),
  'loginErrors.INVALID_SHARE': w('This link has expired', 'Este link expirou', 'Este enlace ha expirado'),
  'loginErrors.USER_DEVICE_LIMIT_REACHED': w(
    'Device limit reached',
    'Limite de dispositivos atingido',
    'Límite de dispositivos alcanzado',
  ),
  'loginErrors.ACCOUNT_IS_READONLY': w(
    'This account is read-only',
    'Esta conta é somente leitura',
    'Esta cuenta es de solo lectura',
  ),
  'loginErrors.ACCOUNT_IS_DEVICE_READONLY': w(
    'This account cannot edit devices',
    'Esta conta não pode editar dispositivos',
    'Esta cuenta no puede editar dispositivos',
  ),
  'loginErrors.WRITE_ACCESS_DENIE': w('Access denied', 'Acesso negado', 'Acceso denegado'),
  'loginErrors.WRITE_ACCESS_DENIED': w('Access denied', 'Acesso negado', 'Acceso denegado'),
  'loginErrors.INVALID_LOGIN_DATA': w('Invalid data', 'Dados inválidos', 'Datos inválidos'),
  'loginErrors.INVALID_CREDENTIALS': w('Invalid data', 'Dados inválidos', 'Datos inválidos'),
  'loginErrors.FILL_ALL_FIELDS': w(
    'Please fill in all fields',
    'Preencha todos os campos',
    'Complete todos los campos',
  ),
  'loginErrors.FILL_EMAIL_FIELD': w(
    'Please enter your e-mail',
    'Informe seu e-mail',
    'Ingrese su correo electrónico',
  ),
  'loginErrors.FILL_TOKEN_FIELD': w('Please enter the token', 'Informe o token', 'Ingrese el token'),
  'loginErrors.NEW_VERSION_AVAILABLE': w(
    'A new version is available',
    'Uma nova versão está disponível',
    'Hay una nueva versión disponible',
  ),
  'loginErrors.REGISTRATION_DISABLED': w(
    'Creating new users is temporarily blocked',
    'A criação de novos usuários está temporariamente bloqueada',
    'La creación de nuevos usuarios está temporalmente bloqueada',
  ),
  'loginErrors.USER_NOT_AUTHED': w('Please refresh the page', 'Atualize a página', 'Actualice la página'),
  'loginErrors.action_cancel': w('Action cancelled', 'Ação cancelada', 'Acción cancelada'),
  'loginErrors.CONNECTION_ERROR': w(
    'Could not reach the server',
    'Não foi possível conectar ao servidor',
    'No se pudo conectar con el servidor',
  ),
  'loginErrors.UNKNOWN_ERROR': w('Unknown error', 'Erro desconhecido', 'Error desconocido'),
  'loginErrors.LOGIN_PROCESS_ERROR': w(
    'Error during login',
    'Erro no processo de login',
    'Error en el proceso de inicio de sesión',
  ),
} as const satisfies Record<string, Wording>;

/** The login errors' wording in one language, by code: { HTTP_401_UNAUTHORIZED: 'Usuário ou senha inválidos', … }. */
export function loginErrorWording(locale: MessageLocale): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, wording] of Object.entries(LOGIN_ERROR_MESSAGES))
    out[key.slice('loginErrors.'.length)] = wording[locale];
  return out;
}
