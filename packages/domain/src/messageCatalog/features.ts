// Messages of the server's refusals and of the features: import, route load, commands, session, direct messages,
// shares, scheduled reports and mail, camera, the fleet assistant.
import { w, type Wording } from './wording.ts';

export const FEATURE_MESSAGES = {
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
  // ---- route pages (GET /{ns}/route, the history's paged route)
  'route.pageQuery': w(
    'Route pages need deviceId, from and to (ISO dates with a zone, from not after to); after is a position id and limit a whole number from 1 to 50,000',
    'As páginas do percurso precisam de deviceId, from e to (datas ISO com fuso, from não depois de to); after é o id de uma posição e limit um número inteiro de 1 a 50.000',
    'Las páginas del recorrido necesitan deviceId, from y to (fechas ISO con zona, from no posterior a to); after es el id de una posición y limit un número entero de 1 a 50.000',
  ),
  'route.pageCursor': w(
    'after: this device has no position {{id}}',
    'after: este dispositivo não tem a posição {{id}}',
    'after: este dispositivo no tiene la posición {{id}}',
  ),
  // ---- positions missed while the socket was reconnecting (POST /{ns}/positions/catchup, issue #30)
  'positions.catchupBody': w(
    'Send after: an object of device ids (at most 20,000) and the fix time of the newest position shown of each (ISO date)',
    'Envie after: um objeto com ids de dispositivos (no máximo 20.000) e o horário do fix da posição mais recente exibida de cada um (data ISO)',
    'Envíe after: un objeto con ids de dispositivos (como máximo 20.000) y la hora del fix de la posición más reciente mostrada de cada uno (fecha ISO)',
  ),
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
  // i18next picks the form by the language's plural rules; the bare key is the fallback
  'messages.allSent_one': w(
    '{{count}} message sent',
    '{{count}} mensagem enviada',
    '{{count}} mensaje enviado',
  ),
  'messages.allSent_other': w(
    '{{count}} messages sent',
    '{{count}} mensagens enviadas',
    '{{count}} mensajes enviados',
  ),
  'messages.allSent_many': w(
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
  'assistant.movingList': w(
    '{{count}} of your {{total}} vehicles are moving: {{names}}.',
    '{{count}} dos seus {{total}} veículos estão em movimento: {{names}}.',
    '{{count}} de sus {{total}} vehículos están en movimiento: {{names}}.',
  ),
  'assistant.movingNone': w(
    'None of your {{total}} vehicles is moving.',
    'Nenhum dos seus {{total}} veículos está em movimento.',
    'Ninguno de sus {{total}} vehículos está en movimiento.',
  ),
  'assistant.stoppedList': w(
    '{{count}} of your {{total}} vehicles are stopped: {{names}}.',
    '{{count}} dos seus {{total}} veículos estão parados: {{names}}.',
    '{{count}} de sus {{total}} vehículos están detenidos: {{names}}.',
  ),
  'assistant.stoppedNone': w(
    'None of your {{total}} vehicles is stopped.',
    'Nenhum dos seus {{total}} veículos está parado.',
    'Ninguno de sus {{total}} vehículos está detenido.',
  ),
  'assistant.onlineCount': w(
    '{{count}} of your {{total}} vehicles are online.',
    '{{count}} dos seus {{total}} veículos estão online.',
    '{{count}} de sus {{total}} vehículos están en línea.',
  ),
  'assistant.speedOf': w(
    '{{name}} was at {{speed}} at {{time}}.',
    '{{name}} estava a {{speed}} às {{time}}.',
    '{{name}} iba a {{speed}} a las {{time}}.',
  ),
  'assistant.distance': w(
    '{{name}} drove {{distance}} {{period}}.',
    '{{name}} rodou {{distance}} {{period}}.',
    '{{name}} recorrió {{distance}} {{period}}.',
  ),
  'assistant.overspeedAbove': w(
    '{{count}} vehicles went over {{limit}} {{period}}: {{names}}.',
    '{{count}} veículos passaram de {{limit}} {{period}}: {{names}}.',
    '{{count}} vehículos pasaron de {{limit}} {{period}}: {{names}}.',
  ),
  'assistant.noOverspeedAbove': w(
    'No vehicle went over {{limit}} {{period}}.',
    'Nenhum veículo passou de {{limit}} {{period}}.',
    'Ningún vehículo pasó de {{limit}} {{period}}.',
  ),
  'assistant.whoDrove': w(
    '{{name}} was driven {{period}} by {{drivers}}.',
    '{{name}} foi dirigido {{period}} por {{drivers}}.',
    '{{name}} fue conducido {{period}} por {{drivers}}.',
  ),
  'assistant.noDriver': w(
    'I do not know who drove {{name}} {{period}}: no driver was identified (driver code or QR check-in).',
    'Não sei quem dirigiu {{name}} {{period}}: nenhum motorista foi identificado (código ou check-in por QR).',
    'No sé quién condujo {{name}} {{period}}: no se identificó ningún conductor (código o registro por QR).',
  ),
  'assistant.periodYesterday': w('yesterday', 'ontem', 'ayer'),
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
    'I did not understand. I can answer where a vehicle is and at what speed, which vehicles are moving, stopped or offline, how many are online, how many km a vehicle drove and who drove it today, yesterday or this week, and who exceeded the speed limit or went over a speed (e.g. 80 km/h).',
    'Não entendi. Sei responder onde está um veículo e a que velocidade, quais veículos estão em movimento, parados ou offline, quantos estão online, quantos km um veículo rodou e quem o dirigiu hoje, ontem ou esta semana, e quem excedeu a velocidade ou passou de uma velocidade (ex.: 80 km/h).',
    'No entendí. Puedo responder dónde está un vehículo y a qué velocidad, qué vehículos están en movimiento, detenidos o fuera de línea, cuántos están en línea, cuántos km recorrió un vehículo y quién lo condujo hoy, ayer o esta semana, y quién excedió la velocidad o pasó de una velocidad (p. ej. 80 km/h).',
  ),
  'assistant.unavailable': w(
    'The assistant needs a signed-in fleet user.',
    'O assistente precisa de um usuário da frota conectado.',
    'El asistente necesita un usuario de la flota conectado.',
  ),
  'denied.reportsDisabled': w(
    'Reports are switched off for this account',
    'Os relatórios estão desativados para esta conta',
    'Los informes están desactivados para esta cuenta',
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
} as const satisfies Record<string, Wording>;
