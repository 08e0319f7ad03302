// Messages of the SPEC §5 forms (validation.*): field rules, limits, user and device forms.
import { w, type Wording } from './wording.ts';

export const FORM_MESSAGES = {
  // ---- forms (SPEC §5)
  'validation.required': w('This field is required', 'Este campo é obrigatório', 'Este campo es obligatorio'),
  'validation.nameRequired': w(
    'Please enter your first and last name',
    'Informe nome e sobrenome',
    'Ingrese nombre y apellido',
  ),
  'validation.nameMinLength': w(
    'The name must have at least 3 characters',
    'O nome deve ter pelo menos 3 caracteres',
    'El nombre debe tener al menos 3 caracteres',
  ),
  'validation.emailRequired': w(
    'Please enter a username or e-mail',
    'Informe o usuário ou e-mail',
    'Ingrese el usuario o correo electrónico',
  ),
  'validation.emailMinLength': w(
    'The username or e-mail must have at least 4 characters',
    'O usuário ou e-mail deve ter pelo menos 4 caracteres',
    'El usuario o correo debe tener al menos 4 caracteres',
  ),
  'validation.emailInvalid': w(
    'Invalid e-mail address',
    'Endereço de e-mail inválido',
    'Correo electrónico inválido',
  ),
  'validation.passwordRequired': w('Please enter a password', 'Informe a senha', 'Ingrese la contraseña'),
  'validation.passwordMinLength': w(
    'The password must have at least 4 characters',
    'A senha deve ter pelo menos 4 caracteres',
    'La contraseña debe tener al menos 4 caracteres',
  ),
  'validation.passwordMismatch': w(
    'The passwords do not match',
    'As senhas não conferem',
    'Las contraseñas no coinciden',
  ),
  'validation.deviceNameRequired': w(
    'please enter a name for the device',
    'informe um nome para o dispositivo',
    'ingrese un nombre para el dispositivo',
  ),
  'validation.deviceUniqueIdRequired': w(
    'please enter the device unique identifier',
    'informe o identificador único do dispositivo',
    'ingrese el identificador único del dispositivo',
  ),
  'validation.deviceUniqueIdTaken': w(
    'Another device already has this identifier',
    'Já existe um dispositivo com este identificador',
    'Ya existe un dispositivo con este identificador',
  ),
  'validation.deviceRequired': w(
    'Please assign a device',
    'Selecione um dispositivo',
    'Seleccione un dispositivo',
  ),
  'validation.deviceSaveFirst': w(
    'Save the device first',
    'Salve o dispositivo primeiro',
    'Guarde el dispositivo primero',
  ),
  'validation.invalidNumber': w('Invalid number', 'Número inválido', 'Número inválido'),
  'validation.notNegative': w('Must not be negative', 'Não pode ser negativo', 'No puede ser negativo'),
  'validation.invalidDate': w('Invalid date', 'Data inválida', 'Fecha inválida'),
  'validation.invalidColor': w('Invalid colour', 'Cor inválida', 'Color inválido'),
  'validation.invalidIcon': w('Invalid icon', 'Ícone inválido', 'Icono inválido'),
  'validation.invalidState': w('Invalid device state', 'Situação inválida', 'Estado inválido'),
  'validation.invalidOption': w('Invalid option', 'Opção inválida', 'Opción inválida'),
  'validation.simDatesOrder': w(
    'The SIM expiry date must be after its activation date',
    'A data de vencimento do chip deve ser posterior à ativação',
    'La fecha de vencimiento del chip debe ser posterior a la activación',
  ),
  'validation.tooLong': w('Too long', 'Texto muito longo', 'Texto demasiado largo'),
  'validation.geofenceNameRequired': w(
    'the name field is required',
    'o campo nome é obrigatório',
    'el campo nombre es obligatorio',
  ),
  'validation.typeRequired': w('Please select a type', 'Selecione um tipo', 'Seleccione un tipo'),
  'validation.channelsRequired': w(
    'Please select at least one channel',
    'Selecione pelo menos um canal',
    'Seleccione al menos un canal',
  ),
  'validation.alarmsRequired': w(
    'Please select at least one alarm',
    'Selecione pelo menos um alarme',
    'Seleccione al menos una alarma',
  ),
  'validation.devicesRequired': w(
    'Please select at least one device',
    'Selecione pelo menos um dispositivo',
    'Seleccione al menos un dispositivo',
  ),
  'validation.calendarRequired': w(
    'Please select a calendar',
    'Selecione um calendário',
    'Seleccione un calendario',
  ),
  'validation.driverRequired': w(
    'Please select a driver',
    'Selecione um motorista',
    'Seleccione un conductor',
  ),
  'validation.bodyRequired': w('Please enter the message', 'Informe a mensagem', 'Ingrese el mensaje'),
  'validation.subjectRequired': w('Please enter the subject', 'Informe o assunto', 'Ingrese el asunto'),
  'validation.subjectTooLong': w(
    'The subject may have at most {{max}} characters',
    'O assunto pode ter no máximo {{max}} caracteres',
    'El asunto puede tener como máximo {{max}} caracteres',
  ),
  'validation.bodyTooLong': w(
    'The message for {{channel}} may have at most {{max}} characters',
    'A mensagem para {{channel}} pode ter no máximo {{max}} caracteres',
    'El mensaje para {{channel}} puede tener como máximo {{max}} caracteres',
  ),
  'validation.channelRequired': w(
    'Select at least one channel',
    'Selecione pelo menos um canal',
    'Seleccione al menos un canal',
  ),
  'validation.channelNotAvailable': w(
    'This channel is not available for the recipient',
    'Este canal não está disponível para o destinatário',
    'Este canal no está disponible para el destinatario',
  ),
  'validation.idRequired': w('A saved record is required', 'Registro não salvo', 'Registro no guardado'),
  'validation.invalidPermissionString': w(
    'The permission string must be 32 hexadecimal characters',
    'A permissão deve ter 32 caracteres hexadecimais',
    'El permiso debe tener 32 caracteres hexadecimales',
  ),
  'validation.userLimitReached': w(
    'User limit reached',
    'Limite de usuários atingido',
    'Límite de usuarios alcanzado',
  ),
  'validation.deviceLimitReached': w(
    'Device limit reached',
    'Limite de dispositivos atingido',
    'Límite de dispositivos alcanzado',
  ),
  'validation.resellerDomain': w(
    'Enter a host name such as frota.example.com (letters, digits, dashes and dots)',
    'Informe um nome de domínio como frota.exemplo.com.br (letras, dígitos, hífens e pontos)',
    'Ingrese un nombre de dominio como flota.ejemplo.com (letras, dígitos, guiones y puntos)',
  ),
  'validation.resellerDomainTaken': w(
    'This domain already belongs to another reseller',
    'Este domínio já pertence a outro revendedor',
    'Este dominio ya pertenece a otro revendedor',
  ),
  'validation.resellerCreateDenied': w(
    'Only an administrator or a reseller allowed to create resellers may change this',
    'Somente um administrador ou um revendedor que pode criar revendedores pode alterar isto',
    'Solo un administrador o un revendedor que puede crear revendedores puede cambiar esto',
  ),
  'validation.limitBeyondOwn': w(
    'The limit cannot exceed your own',
    'O limite não pode ser maior que o seu',
    'El límite no puede superar el suyo',
  ),
  'validation.resellerNeedsUserLimit': w(
    'A reseller needs a user limit (-1 for no limit, or more than 0)',
    'Um revendedor precisa de um limite de usuários (-1 sem limite, ou maior que 0)',
    'Un revendedor necesita un límite de usuarios (-1 sin límite, o mayor que 0)',
  ),
  'validation.smsApiNotConfigured': w(
    'SMS API not configured',
    'API de SMS não configurada',
    'API de SMS no configurada',
  ),
  'validation.cannotDeleteSelf': w(
    'You cannot delete your own user',
    'Você não pode excluir o próprio usuário',
    'No puede eliminar su propio usuario',
  ),
  'validation.cannotEditSuperiorAdmin': w(
    'You cannot change a superior administrator',
    'Você não pode alterar um administrador superior',
    'No puede modificar un administrador superior',
  ),
  'validation.loginAsSelf': w(
    'You are already using this account',
    'Você já está usando esta conta',
    'Ya está usando esta cuenta',
  ),
  'validation.loginAsDisabled': w(
    'You cannot log in as a disabled user',
    'Você não pode entrar como um usuário desativado',
    'No puede entrar como un usuario desactivado',
  ),
  'validation.loginAsExpired': w(
    'You cannot log in as an expired user',
    'Você não pode entrar como um usuário expirado',
    'No puede entrar como un usuario vencido',
  ),
  'validation.notImpersonating': w(
    'This session is not using another account',
    'Esta sessão não está usando outra conta',
    'Esta sesión no está usando otra cuenta',
  ),
  'denied.protectedField': w(
    'You cannot change the field {{field}} of this user',
    'Você não pode alterar o campo {{field}} deste usuário',
    'No puede modificar el campo {{field}} de este usuario',
  ),
  'validation.commandRequired': w(
    'Select the command to send',
    'Selecione o comando a enviar',
    'Seleccione el comando a enviar',
  ),
  'validation.soundUrl': w(
    'Enter an http(s) URL or one starting with /',
    'Informe uma URL http(s) ou iniciada por /',
    'Indique una URL http(s) o que empiece con /',
  ),
} as const satisfies Record<string, Wording>;
