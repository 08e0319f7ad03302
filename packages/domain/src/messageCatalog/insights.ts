// Messages of fleet insights (issue #14): the dashboard's and the scores' errors, and the score columns (screen and
// Excel), in the three product languages.
import { w, type Wording } from './wording.ts';

export const INSIGHTS_MESSAGES = {
  'validation.insightsPeriod': w(
    'The period may be at most {{days}} days',
    'O período pode ter no máximo {{days}} dias',
    'El período puede tener como máximo {{days}} días',
  ),
  'validation.scoreWeight': w(
    'A weight is a number from 0 to {{max}}',
    'O peso é um número de 0 a {{max}}',
    'El peso es un número de 0 a {{max}}',
  ),
  'insights.needsEmbedded': w(
    'The dashboard and the scores need the embedded server (they are not available in gateway mode)',
    'O painel e a pontuação precisam do servidor embutido (não estão disponíveis no modo gateway)',
    'El panel y la puntuación necesitan el servidor integrado (no están disponibles en modo gateway)',
  ),
  'scores.sheet.driver': w('Driver scores', 'Pontuação dos motoristas', 'Puntuación de conductores'),
  'scores.sheet.device': w('Vehicle scores', 'Pontuação dos veículos', 'Puntuación de vehículos'),
  'scores.column.rank': w('Rank', 'Posição', 'Posición'),
  'scores.column.driver': w('Driver', 'Motorista', 'Conductor'),
  'scores.column.device': w('Vehicle', 'Veículo', 'Vehículo'),
  'scores.column.score': w('Score', 'Pontuação', 'Puntuación'),
  'scores.column.distance': w('Distance ({{unit}})', 'Distância ({{unit}})', 'Distancia ({{unit}})'),
  'scores.column.drivingTime': w('Driving time (h)', 'Tempo dirigindo (h)', 'Tiempo conduciendo (h)'),
  'scores.column.overspeed': w(
    'Overspeed (% of driving)',
    'Excesso de velocidade (% da condução)',
    'Exceso de velocidad (% de la conducción)',
  ),
  'scores.column.excess': w('Mean excess (km/h)', 'Excesso médio (km/h)', 'Exceso medio (km/h)'),
  'scores.column.acceleration': w(
    'Harsh acceleration (per 100 km)',
    'Aceleração brusca (por 100 km)',
    'Aceleración brusca (por 100 km)',
  ),
  'scores.column.braking': w(
    'Harsh braking (per 100 km)',
    'Frenagem brusca (por 100 km)',
    'Frenada brusca (por 100 km)',
  ),
  'scores.column.cornering': w(
    'Harsh cornering (per 100 km)',
    'Curva brusca (por 100 km)',
    'Giro brusco (por 100 km)',
  ),
  'scores.column.idle': w(
    'Idling (% of engine time)',
    'Marcha lenta (% do tempo de motor)',
    'Ralentí (% del tiempo de motor)',
  ),
  'scores.column.night': w(
    'Night driving (% of driving)',
    'Condução noturna (% da condução)',
    'Conducción nocturna (% de la conducción)',
  ),
  'scores.column.source': w('Harsh events from', 'Eventos bruscos de', 'Eventos bruscos de'),
  'scores.source.alarms': w('device alarms', 'alarmes do rastreador', 'alarmas del rastreador'),
  'scores.source.positions': w('positions', 'posições', 'posiciones'),
  'scores.noScore': w('no driving', 'sem condução', 'sin conducción'),
} as const satisfies Record<string, Wording>;
