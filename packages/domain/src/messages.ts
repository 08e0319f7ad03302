// Every i18n key the domain rules emit (zod messages, denials, login error codes, route and action errors), with
// its default wording in the three product languages. The web checks its locale files cover MESSAGE_KEYS and
// can seed them from defaultMessages. Where SPEC gives a wording, it is used verbatim in its own language.
// Keys are flat dotted paths ('validation.deviceNameRequired'); nestMessages() turns a flat map into the nested
// JSON i18next reads.
import { CHANGELOG_MESSAGES } from './changelog.ts';

export type MessageLocale = 'pt-BR' | 'es' | 'en-US';
export const MESSAGE_LOCALES: readonly MessageLocale[] = ['pt-BR', 'es', 'en-US'];

type Wording = Readonly<Record<MessageLocale, string>>;
const w = (en: string, pt: string, es: string): Wording => ({ 'en-US': en, 'pt-BR': pt, es });

const MESSAGES = {
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
  // ---- server refusals (403): advanced permission bits and role rules evaluated on the server
  'denied.permission': w(
    'Permission denied: {{action}} ({{area}})',
    'Permissão negada: {{action}} ({{area}})',
    'Permiso denegado: {{action}} ({{area}})',
  ),
  'denied.qrDriver': w(
    'A QR driver account cannot do this',
    'Uma conta de motorista QR não pode fazer isso',
    'Una cuenta de conductor QR no puede hacer esto',
  ),
  'denied.sharedGuest': w(
    'A shared link cannot do this',
    'Um link compartilhado não pode fazer isso',
    'Un enlace compartido no puede hacer esto',
  ),
  'permissions.area.devices': w('devices', 'dispositivos', 'dispositivos'),
  'permissions.area.reports': w('reports', 'relatórios', 'informes'),
  'permissions.area.geofences': w('geofences', 'cercas', 'geocercas'),
  'permissions.area.commands': w('commands', 'comandos', 'comandos'),
  'permissions.area.groups': w('groups', 'grupos', 'grupos'),
  'permissions.area.notifications': w('notifications', 'notificações', 'notificaciones'),
  'permissions.area.events': w('events', 'eventos', 'eventos'),
  'permissions.area.drivers': w('drivers', 'motoristas', 'conductores'),
  'permissions.area.calendars': w('calendars', 'calendários', 'calendarios'),
  'permissions.area.anchor': w('anchor', 'âncora', 'ancla'),
  'permissions.area.share': w('shared links', 'links compartilhados', 'enlaces compartidos'),
  'permissions.area.users': w('users', 'usuários', 'usuarios'),
  'permissions.area.computed': w('computed attributes', 'atributos computados', 'atributos calculados'),
  'permissions.area.maintenance': w('maintenance', 'manutenção', 'mantenimiento'),
  'permissions.action.view': w('view', 'visualizar', 'ver'),
  'permissions.action.lock': w('block / enable', 'bloquear / ativar', 'bloquear / activar'),
  'permissions.action.unlock': w('unblock / disable', 'desbloquear / desativar', 'desbloquear / desactivar'),
  'permissions.action.command': w('send commands', 'enviar comandos', 'enviar comandos'),
  'permissions.action.create': w('create', 'criar', 'crear'),
  'permissions.action.edit': w('edit', 'editar', 'editar'),
  'permissions.action.delete': w('delete', 'excluir', 'eliminar'),
  'permissions.action.selfEdit': w('edit own account', 'editar a própria conta', 'editar la propia cuenta'),
  'validation.checkFormData': w(
    'Check the form data',
    'Verifique os dados do formulário',
    'Verifique los datos del formulario',
  ),
  'validation.selectUserToEdit': w(
    'Select a user to edit',
    'Selecione um usuário para editar',
    'Seleccione un usuario para editar',
  ),
  // ---- Excel import
  'denied.engineBlockMoving': w(
    'Engine block refused for {{name}}: it is moving at {{speed}} km/h, above the {{limit}} km/h limit for blocking',
    'Bloqueio recusado para {{name}}: o veículo está a {{speed}} km/h, acima do limite de {{limit}} km/h para bloquear',
    'Bloqueo rechazado para {{name}}: el vehículo va a {{speed}} km/h, por encima del límite de {{limit}} km/h para bloquear',
  ),
  'import.invalidFileType': w(
    'Choose an .xlsx or .xls file',
    'Escolha um arquivo .xlsx ou .xls',
    'Elija un archivo .xlsx o .xls',
  ),
  'import.emptyFile': w('The file is empty', 'O arquivo está vazio', 'El archivo está vacío'),
  'import.noValidData': w(
    'No valid rows found',
    'Nenhuma linha válida encontrada',
    'No se encontraron filas válidas',
  ),
  'import.libraryLoadError': w(
    'Could not load the spreadsheet library',
    'Não foi possível carregar a biblioteca de planilhas',
    'No se pudo cargar la biblioteca de hojas de cálculo',
  ),
  'import.processingError': w(
    'Could not process the file',
    'Não foi possível processar o arquivo',
    'No se pudo procesar el archivo',
  ),
  'import.cannotCancel': w(
    'The import cannot be cancelled while running',
    'Não é possível cancelar durante a importação',
    'No es posible cancelar durante la importación',
  ),
  'import.limitExceeded': w(
    'Import limit exceeded: {{remaining}} remaining',
    'Limite de importação excedido: restam {{remaining}}',
    'Límite de importación superado: quedan {{remaining}}',
  ),
  // ---- route load (SPEC §8)
  'route.noData': w(
    'No data found for the selected period',
    'Nenhum dado encontrado para o período selecionado',
    'No se encontraron datos para el período seleccionado',
  ),
  'route.badFormat': w(
    'Invalid server response format',
    'Erro no formato da resposta do servidor',
    'Error en el formato de respuesta del servidor',
  ),
  'route.invalidResponse': w(
    'Invalid server response',
    'Resposta inválida do servidor',
    'Respuesta inválida del servidor',
  ),
  'route.invalidData': w('Invalid data format', 'Formato de dados inválido', 'Formato de datos inválido'),
  // ---- commands and device actions (SPEC §8)
  'actions.commandError': w('Error sending command', 'Erro ao enviar comando', 'Error al enviar comando'),
  'actions.anchorError': w('Error running anchor', 'Erro ao executar âncora', 'Error al ejecutar anchor'),
  'actions.deleteError': w(
    'Error deleting device',
    'Erro ao excluir dispositivo',
    'Error al eliminar dispositivo',
  ),
  'actions.blockSent': w('Block command sent', 'Comando de bloqueio enviado', 'Comando de bloqueo enviado'),
  'actions.unlockSent': w(
    'Unblock command sent',
    'Comando de desbloqueio enviado',
    'Comando de desbloqueo enviado',
  ),
  'actions.deviceDeleted': w('Device deleted', 'Dispositivo excluído', 'Dispositivo eliminado'),
  'actions.commandPending': w(
    'Command queued until the device is online',
    'Comando pendente até o dispositivo ficar online',
    'Comando pendiente hasta que el dispositivo esté en línea',
  ),
  'actions.anchorEnableConfirm': w(
    'Do you really want to enable the anchor for vehicle {{name}}?',
    'Deseja realmente ativar a âncora do veículo {{name}}?',
    '¿Realmente desea activar el anchor del vehículo {{name}}?',
  ),
  'actions.anchorDisableConfirm': w(
    'Do you really want to disable the anchor for vehicle {{name}}?',
    'Deseja realmente desativar a âncora do veículo {{name}}?',
    '¿Realmente desea desactivar el anchor del vehículo {{name}}?',
  ),
  'actions.anchorEnabled': w('Anchor enabled', 'Âncora ativada', 'Anchor activado'),
  'actions.anchorDisabled': w('Anchor disabled', 'Âncora desativada', 'Anchor desactivado'),
  'actions.cancelledByUser': w(
    'Action cancelled by the user',
    'Ação cancelada pelo usuário',
    'Acción cancelada por el usuario',
  ),
  // ---- session (SPEC §8)
  'session.expired': w('Your session has expired!', 'Sua sessão expirou!', '¡Su sesión ha expirado!'),
  'session.attention': w('Attention', 'Atenção', 'Atención'),
  'session.leave': w('Leave', 'Sair', 'Salir'),
  // ---- direct message results
  'messages.allSent': w(
    '{{count}} messages sent',
    '{{count}} mensagens enviadas',
    '{{count}} mensajes enviados',
  ),
  'messages.partiallySent': w(
    '{{sent}} of {{total}} messages sent',
    '{{sent}} de {{total}} mensagens enviadas',
    '{{sent}} de {{total}} mensajes enviados',
  ),
  'messages.noneSent': w(
    'No message could be sent',
    'Nenhuma mensagem foi enviada',
    'No se pudo enviar ningún mensaje',
  ),
  'messages.sendError': w(
    'Error sending the message',
    'Erro ao enviar a mensagem',
    'Error al enviar el mensaje',
  ),
  // ---- shared-link countdown ({{count}} = whole units left)
  'share.remaining.days': w('{{count}} d', '{{count}} d', '{{count}} d'),
  'share.remaining.hours': w('{{count}} h', '{{count}} h', '{{count}} h'),
  'share.remaining.minutes': w('{{count}} min', '{{count}} min', '{{count}} min'),
  'share.remaining.seconds': w('{{count}} s', '{{count}} s', '{{count}} s'),
  'share.expired': w('Link expired', 'Link expirado', 'Enlace expirado'),
  'qrDriver.checkinDisabled': w(
    'QR driver check-in is turned off on this server',
    'O check-in de motorista por QR está desativado neste servidor',
    'El registro de conductor por QR está desactivado en este servidor',
  ),
  'qrDriver.noDriver': w(
    'This account is not linked to a driver',
    'Esta conta não está vinculada a um motorista',
    'Esta cuenta no está vinculada a un conductor',
  ),
  'qrDriver.deviceRequired': w(
    'Scan or type the vehicle code',
    'Leia ou digite o código do veículo',
    'Escanee o escriba el código del vehículo',
  ),
  'qrDriver.deviceNotFound': w(
    'Vehicle not found or not available to you',
    'Veículo não encontrado ou não disponível para você',
    'Vehículo no encontrado o no disponible para usted',
  ),
  'qrDriver.deviceNotEnabled': w(
    'This vehicle does not accept QR check-in',
    'Este veículo não aceita check-in por QR',
    'Este vehículo no acepta registro por QR',
  ),
  'qrDriver.deviceTaken': w(
    'Another driver is checked in to this vehicle',
    'Outro motorista está com este veículo',
    'Otro conductor está registrado en este vehículo',
  ),
  'qrDriver.buttonsDisabled': w(
    'The lock and unlock buttons are turned off on this server',
    'Os botões de bloquear e desbloquear estão desativados neste servidor',
    'Los botones de bloquear y desbloquear están desactivados en este servidor',
  ),
  'qrDriver.notDriving': w(
    'Check in to a vehicle first',
    'Faça o check-in em um veículo primeiro',
    'Regístrese primero en un vehículo',
  ),
  'qrDriver.engineType': w(
    'Choose lock or unlock',
    'Escolha bloquear ou desbloquear',
    'Elija bloquear o desbloquear',
  ),
  'qrDriver.wrongPassword': w(
    'Wrong driver password',
    'Senha do motorista incorreta',
    'Contraseña del conductor incorrecta',
  ),
  // ---- scheduled reports (mail)
  'reportMail.subject': w(
    'Rastro: {{type}} report',
    'Rastro: relatório de {{type}}',
    'Rastro: informe de {{type}}',
  ),
  'reportMail.body': w(
    'Attached: the {{type}} report you asked for in Rastro.',
    'Em anexo: o relatório de {{type}} que você pediu no Rastro.',
    'Adjunto: el informe de {{type}} que pidió en Rastro.',
  ),
  'reportMail.notConfigured': w(
    'E-mail is not configured on this server',
    'O envio de e-mail não está configurado neste servidor',
    'El correo electrónico no está configurado en este servidor',
  ),
  'reportMail.noAddress': w(
    'Your account has no e-mail address to send the report to',
    'Sua conta não tem um endereço de e-mail para receber o relatório',
    'Su cuenta no tiene una dirección de correo para recibir el informe',
  ),
  'scheduledReport.subject': w(
    '{{name}}: {{from}} – {{to}}',
    '{{name}}: {{from}} – {{to}}',
    '{{name}}: {{from}} – {{to}}',
  ),
  'scheduledReport.body': w(
    'Attached: the {{type}} report from {{from}} to {{to}}, sent by Rastro as scheduled.',
    'Em anexo: o relatório de {{type}} de {{from}} a {{to}}, enviado pelo Rastro conforme o agendamento.',
    'Adjunto: el informe de {{type}} del {{from}} al {{to}}, enviado por Rastro según la programación.',
  ),
  // ---- camera view (SPEC §8)
  'camera.unavailable': w(
    'Video not available after several attempts',
    'Vídeo não disponível após várias tentativas',
    'Video no disponible después de varios intentos',
  ),
  'camera.timeout': w(
    'The video took too long to load; trying again…',
    'O vídeo demorou demais para carregar; tentando de novo…',
    'El video tardó demasiado en cargar; intentando de nuevo…',
  ),
  'camera.commandError': w(
    'Error sending the camera command',
    'Erro ao enviar o comando da câmera',
    'Error al enviar el comando de la cámara',
  ),
  'linkObjects.timeout': w(
    'The related objects took too long to load',
    'Os objetos relacionados demoraram demais para carregar',
    'Los objetos relacionados tardaron demasiado en cargar',
  ),
  'autolink.identifierInvalid': w(
    'Type the tracker identifier (IMEI or serial): 3 to 128 letters, digits, or _ . : -',
    'Digite o identificador do rastreador (IMEI ou serial): de 3 a 128 letras, dígitos ou _ . : -',
    'Escriba el identificador del rastreador (IMEI o serie): de 3 a 128 letras, dígitos o _ . : -',
  ),
  'autolink.registered': w(
    'This tracker is already registered',
    'Este rastreador já está cadastrado',
    'Este rastreador ya está registrado',
  ),
  // ---- fleet assistant (/asistente-demo)
  'assistant.whereIs': w(
    '{{name}} is at {{place}}, {{status}}, {{speed}}; last report {{time}}.',
    '{{name}} está em {{place}}, {{status}}, {{speed}}; última posição {{time}}.',
    '{{name}} está en {{place}}, {{status}}, {{speed}}; última posición {{time}}.',
  ),
  'assistant.noPosition': w(
    '{{name}} has not reported a position yet.',
    '{{name}} ainda não enviou nenhuma posição.',
    '{{name}} todavía no ha enviado ninguna posición.',
  ),
  'assistant.offline': w(
    '{{count}} of your {{total}} vehicles are offline: {{names}}.',
    '{{count}} dos seus {{total}} veículos estão offline: {{names}}.',
    '{{count}} de sus {{total}} vehículos están fuera de línea: {{names}}.',
  ),
  'assistant.noneOffline': w(
    'None of your {{total}} vehicles is offline.',
    'Nenhum dos seus {{total}} veículos está offline.',
    'Ninguno de sus {{total}} vehículos está fuera de línea.',
  ),
  'assistant.distanceToday': w(
    '{{name}} has driven {{distance}} today.',
    '{{name}} rodou {{distance}} hoje.',
    '{{name}} recorrió {{distance}} hoy.',
  ),
  'assistant.overspeed': w(
    '{{count}} vehicles exceeded the speed limit {{period}}: {{names}}.',
    '{{count}} veículos excederam a velocidade {{period}}: {{names}}.',
    '{{count}} vehículos excedieron la velocidad {{period}}: {{names}}.',
  ),
  'assistant.noOverspeed': w(
    'No vehicle exceeded the speed limit {{period}}.',
    'Nenhum veículo excedeu a velocidade {{period}}.',
    'Ningún vehículo excedió la velocidad {{period}}.',
  ),
  'assistant.periodToday': w('today', 'hoje', 'hoy'),
  'assistant.periodWeek': w('this week', 'esta semana', 'esta semana'),
  'assistant.notFound': w(
    'I could not find a vehicle called “{{name}}” among yours.',
    'Não encontrei nenhum veículo “{{name}}” entre os seus.',
    'No encontré ningún vehículo “{{name}}” entre los suyos.',
  ),
  'assistant.whichVehicle': w(
    'Which vehicle? Name it, for example: {{names}}.',
    'Qual veículo? Diga o nome, por exemplo: {{names}}.',
    '¿Qué vehículo? Dígame el nombre, por ejemplo: {{names}}.',
  ),
  'assistant.ambiguous': w(
    'Several vehicles match: {{names}}. Which one?',
    'Vários veículos correspondem: {{names}}. Qual deles?',
    'Varios vehículos coinciden: {{names}}. ¿Cuál?',
  ),
  'assistant.unknown': w(
    'I did not understand. I can answer where a vehicle is, which vehicles are offline, how many km a vehicle drove today and who exceeded the speed limit this week.',
    'Não entendi. Sei responder onde está um veículo, quais veículos estão offline, quantos km um veículo rodou hoje e quem excedeu a velocidade esta semana.',
    'No entendí. Puedo responder dónde está un vehículo, qué vehículos están fuera de línea, cuántos km recorrió un vehículo hoy y quién excedió la velocidad esta semana.',
  ),
  'assistant.unavailable': w(
    'The assistant needs a signed-in fleet user.',
    'O assistente precisa de um usuário da frota conectado.',
    'El asistente necesita un usuario de la flota conectado.',
  ),
  'assistant.status.online': w('online', 'online', 'en línea'),
  'assistant.status.offline': w('offline', 'offline', 'fuera de línea'),
  'assistant.status.unknown': w('status unknown', 'status desconhecido', 'estado desconocido'),
  'assistant.moving': w('moving at {{speed}}', 'em movimento a {{speed}}', 'en movimiento a {{speed}}'),
  'assistant.stopped': w('stopped', 'parado', 'detenido'),
  'share.targetRequired': w(
    'Choose one device or one group to share',
    'Escolha um dispositivo ou um grupo para compartilhar',
    'Elija un dispositivo o un grupo para compartir',
  ),
  'share.expiryInvalid': w(
    'Invalid expiry date',
    'Data de validade inválida',
    'Fecha de vencimiento inválida',
  ),
  'share.expiryPast': w(
    'The expiry must be in the future',
    'A validade deve estar no futuro',
    'El vencimiento debe estar en el futuro',
  ),
  'share.notFound': w(
    'Share not found',
    'Compartilhamento não encontrado',
    'Enlace compartido no encontrado',
  ),
  'share.disabled': w(
    'Sharing is disabled on this server',
    'O compartilhamento está desativado neste servidor',
    'Compartir está desactivado en este servidor',
  ),
  'share.gatewayNeedsToken': w(
    'Managing shared links through Traccar needs TRACCAR_TOKEN (an administrator or service-account token)',
    'Gerenciar links compartilhados pelo Traccar requer TRACCAR_TOKEN (token de administrador ou de conta de serviço)',
    'Administrar enlaces compartidos a través de Traccar requiere TRACCAR_TOKEN (token de administrador o de cuenta de servicio)',
  ),
  'share.needsPlus': w(
    'Managing shared links needs a Plus server',
    'Gerenciar links compartilhados requer um servidor Plus',
    'Administrar enlaces compartidos requiere un servidor Plus',
  ),
  'share.guestDenied': w(
    'A shared-link guest cannot share',
    'Um convidado de link compartilhado não pode compartilhar',
    'Un invitado de enlace compartido no puede compartir',
  ),
  // ---- login errors (SPEC §8): key = loginErrors.<CODE>
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
  ...CHANGELOG_MESSAGES,
  // ---- report columns and event type names (the on-screen reports, their Excel sheets and server .xlsx)
  'reportColumns.device': w('Device', 'Dispositivo', 'Dispositivo'),
  'reportColumns.startTime': w('Start', 'Início', 'Inicio'),
  'reportColumns.endTime': w('End', 'Fim', 'Fin'),
  'reportColumns.distance': w('Distance', 'Distância', 'Distancia'),
  'reportColumns.averageSpeed': w('Average speed', 'Velocidade média', 'Velocidad media'),
  'reportColumns.maxSpeed': w('Top speed', 'Velocidade máxima', 'Velocidad máxima'),
  'reportColumns.engineHours': w('Engine hours', 'Horas de motor', 'Horas de motor'),
  'reportColumns.spentFuel': w('Fuel spent', 'Combustível gasto', 'Combustible gastado'),
  'reportColumns.fuelCost': w('Fuel cost', 'Custo de combustível', 'Costo de combustible'),
  'reportColumns.estimatedFuel': w('Estimated fuel', 'Combustível estimado', 'Combustible estimado'),
  'reportColumns.estimatedFuelCost': w(
    'Estimated fuel cost',
    'Custo estimado de combustível',
    'Costo estimado de combustible',
  ),
  'reportColumns.startAddress': w('Start address', 'Endereço de início', 'Dirección de inicio'),
  'reportColumns.endAddress': w('End address', 'Endereço de fim', 'Dirección de fin'),
  'reportColumns.duration': w('Duration', 'Duração', 'Duración'),
  'reportColumns.driver': w('Driver', 'Motorista', 'Conductor'),
  'reportColumns.address': w('Address', 'Endereço', 'Dirección'),
  'reportColumns.eventTime': w('Time', 'Horário', 'Hora'),
  'reportColumns.type': w('Type', 'Tipo', 'Tipo'),
  'reportColumns.alarm': w('Alarm', 'Alarme', 'Alarma'),
  'reportColumns.fixTime': w('Time', 'Horário', 'Hora'),
  'reportColumns.latitude': w('Latitude', 'Latitude', 'Latitud'),
  'reportColumns.longitude': w('Longitude', 'Longitude', 'Longitud'),
  'reportColumns.speed': w('Speed', 'Velocidade', 'Velocidad'),
  'reportColumns.course': w('Course', 'Direção', 'Rumbo'),
  'eventTypeNames.alarm': w('Alarm', 'Alarme', 'Alarma'),
  'eventTypeNames.deviceOnline': w('Online', 'Online', 'En línea'),
  'eventTypeNames.deviceOffline': w('Offline', 'Offline', 'Desconectado'),
  'eventTypeNames.deviceMoving': w('Moving', 'Em movimento', 'En movimiento'),
  'eventTypeNames.deviceStopped': w('Stopped', 'Parado', 'Detenido'),
  'eventTypeNames.ignitionOn': w('Ignition on', 'Ignição ligada', 'Encendido'),
  'eventTypeNames.ignitionOff': w('Ignition off', 'Ignição desligada', 'Apagado'),
  'eventTypeNames.geofenceEnter': w('Geofence entered', 'Entrada na cerca', 'Entrada en geocerca'),
  'eventTypeNames.geofenceExit': w('Geofence exited', 'Saída da cerca', 'Salida de geocerca'),
  'eventTypeNames.deviceOverspeed': w('Overspeed', 'Excesso de velocidade', 'Exceso de velocidad'),
  'eventTypeNames.commandResult': w('Command result', 'Resultado de comando', 'Resultado de comando'),
  'eventTypeNames.driverChanged': w('Driver changed', 'Troca de motorista', 'Cambio de conductor'),
  'eventTypeNames.deviceFuelDrop': w('Fuel drop', 'Queda de combustível', 'Caída de combustible'),
  'eventTypeNames.deviceFuelIncrease': w('Fuel increase', 'Aumento de combustível', 'Aumento de combustible'),
  'eventTypeNames.maintenance': w('Maintenance required', 'Manutenção necessária', 'Mantenimiento necesario'),
  'eventTypeNames.deviceInactive': w('Inactive', 'Inativo', 'Inactivo'),
  'eventTypeNames.textMessage': w('Text message', 'Mensagem de texto', 'Mensaje de texto'),
  'eventTypeNames.deviceUnknown': w('Status unknown', 'Status desconhecido', 'Estado desconocido'),
  'eventTypeNames.queuedCommandSent': w(
    'Queued command sent',
    'Comando em fila enviado',
    'Comando en cola enviado',
  ),
  'reportSheets.route': w('Route', 'Percurso', 'Recorrido'),
  'reportSheets.events': w('Events', 'Eventos', 'Eventos'),
  'reportSheets.trips': w('Trips', 'Viagens', 'Viajes'),
  'reportSheets.stops': w('Stops', 'Paradas', 'Paradas'),
  'reportSheets.summary': w('Summary', 'Resumo', 'Resumen'),
} as const satisfies Record<string, Wording>;

export type MessageKey = keyof typeof MESSAGES;
export const MESSAGE_KEYS = Object.keys(MESSAGES) as MessageKey[];

export function isMessageKey(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(MESSAGES, key);
}

/** Flat wording per locale: defaultMessages['pt-BR']['validation.channelRequired'] === 'Selecione pelo menos um canal'. */
export const defaultMessages: Readonly<Record<MessageLocale, Readonly<Record<MessageKey, string>>>> = (() => {
  const out = { 'pt-BR': {}, es: {}, 'en-US': {} } as Record<MessageLocale, Record<MessageKey, string>>;
  for (const key of MESSAGE_KEYS) for (const l of MESSAGE_LOCALES) out[l][key] = MESSAGES[key][l];
  return out;
})();

/** Minimal {{name}} interpolation, for server-side texts and tests. */
export function formatMessage(
  key: MessageKey,
  locale: MessageLocale = 'pt-BR',
  values: Record<string, string | number> = {},
): string {
  return defaultMessages[locale][key].replace(/\{\{(\w+)\}\}/g, (m, name: string) =>
    name in values ? String(values[name]) : m,
  );
}

export type NestedMessages = { [key: string]: string | NestedMessages };

/** 'a.b': 'x' ⇒ { a: { b: 'x' } }, the shape of i18next JSON resources. */
export function nestMessages(flat: Readonly<Record<string, string>>): NestedMessages {
  const root: NestedMessages = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split('.');
    let node = root;
    for (const p of parts.slice(0, -1)) {
      const next = node[p];
      if (typeof next === 'object') node = next;
      else node = node[p] = {};
    }
    node[parts[parts.length - 1]] = value;
  }
  return root;
}
