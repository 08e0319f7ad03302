import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { registerMedia } from './media.ts';
import { registerBranding } from './branding.ts';
import { registerWeather } from './weather.ts';
import { registerDeviceImages } from './deviceImages.ts';
import { registerHealth } from './health.ts';
import { registerLogs } from './logs.ts';
import { registerTheme } from './theme.ts';
import { registerBilling } from './billing/index.ts';
import { registerShares } from './shares.ts';
import { registerGatewayShares } from './sharesGateway.ts';
import { registerGatewayInsights } from './insightsGateway.ts';
import { registerAlarms } from './alarms.ts';

/** The /{ns} extension API plus /api/weather and /api/server-health (same code in both modes). */
export async function registerExtensions(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await registerMedia(app, ctx);
  await registerBranding(app, ctx);
  await registerWeather(app, ctx);
  await registerDeviceImages(app, ctx);
  await registerHealth(app, ctx);
  await registerLogs(app, ctx);
  await registerTheme(app, ctx);
  await registerBilling(app, ctx);
  registerShares(app, ctx);
  registerGatewayShares(app, ctx);
  registerGatewayInsights(app, ctx);
  registerAlarms(app, ctx);
}
