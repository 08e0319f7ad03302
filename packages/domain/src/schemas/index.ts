export {
  parseZonedDate,
  formatTraccarDate,
  zonedDate,
  idList as queryIdList,
  queryInt,
  flag as queryFlag,
  describeZodError,
} from './common.ts';
export { validateArea } from './area.ts';
export { validateCalendarData } from './calendar.ts';
export * from './entities.ts';
export * from './requests.ts';
