// Traccar's refusals in the three languages (issue #29), apart from the other catalogues: the web's error display
// (serverErrorText) is in every page's first download, and needs only these.
import { w, type Wording } from './wording.ts';

/** Traccar's refusals, sent in English on the wire (its clients read them): the web shows these wordings. */
export const TRACCAR_ERROR_MESSAGES = {
  // issue #30: the database cannot be reached now (503); nothing of the request was stored
  'traccarErrors.databaseUnavailable': w(
    'The database is unavailable right now; nothing was saved. Try again in a few seconds',
    'O banco de dados está indisponível no momento; nada foi salvo. Tente de novo em alguns segundos',
    'La base de datos no está disponible en este momento; no se guardó nada. Inténtelo de nuevo en unos segundos',
  ),
  'traccarErrors.writeAccessDenied': w(
    'Write access denied: this account can only view',
    'Acesso negado: esta conta só pode visualizar',
    'Acceso denegado: esta cuenta solo puede ver',
  ),
  'traccarErrors.administratorRequired': w(
    'Administrator access required',
    'Requer acesso de administrador',
    'Se requiere acceso de administrador',
  ),
  'traccarErrors.managerRequired': w(
    'Manager access required',
    'Requer acesso de gerente',
    'Se requiere acceso de gerente',
  ),
  'traccarErrors.deviceAccessDenied': w(
    'Access to this device denied',
    'Acesso negado a este dispositivo',
    'Acceso denegado a este dispositivo',
  ),
  'traccarErrors.userAccessDenied': w(
    'Access to this user denied',
    'Acesso negado a este usuário',
    'Acceso denegado a este usuario',
  ),
  'traccarErrors.driverAccessDenied': w(
    'Access to this driver denied',
    'Acesso negado a este motorista',
    'Acceso denegado a este conductor',
  ),
  'traccarErrors.deviceLimitReached': w(
    'Device limit reached',
    'Limite de dispositivos atingido',
    'Límite de dispositivos alcanzado',
  ),
  'traccarErrors.userLimitReached': w(
    'User limit reached',
    'Limite de usuários atingido',
    'Límite de usuarios alcanzado',
  ),
  'traccarErrors.userDisabled': w('Account disabled', 'Conta desativada', 'Cuenta desactivada'),
  'traccarErrors.userExpired': w('Account expired', 'Conta expirada', 'Cuenta vencida'),
  'traccarErrors.authorizationFailed': w(
    'Wrong user or password',
    'Usuário ou senha incorretos',
    'Usuario o contraseña incorrectos',
  ),
  'traccarErrors.registrationDisabled': w(
    'Registration is disabled',
    'O cadastro está desativado',
    'El registro está desactivado',
  ),
  'traccarErrors.sharingDisabled': w(
    'Sharing is disabled',
    'O compartilhamento está desativado',
    'El uso compartido está desactivado',
  ),
  'traccarErrors.unauthorized': w('Not signed in', 'Sessão não iniciada', 'Sesión no iniciada'),
  'traccarErrors.serverUnreachable': w(
    'The tracking server cannot be reached',
    'O servidor de rastreamento não responde',
    'El servidor de rastreo no responde',
  ),
} as const satisfies Record<string, Wording>;
