// The adapter every external notification channel implements (CONTRACT §9). Adapters exist for real clients
// but only act when their environment variables configure them (docs/configuration.md, "Notifications").
import type { User } from '../cache.ts';

export interface NotificationMessage {
  subject: string;
  body: string;
  digest?: string;
  priority?: boolean;
}

export interface Notificator {
  readonly type: string;
  /** Whether the channel has what it needs (credentials, endpoints) to send at all. */
  configured(): boolean;
  /** Sends to one user; throws with a clear message when the user lacks the address this channel needs. */
  send(user: User, message: NotificationMessage, userAttributes: Record<string, unknown>): Promise<void>;
}

export class NotConfigured extends Error {}

/** The text cut to at most `max` characters, an ellipsis included (a channel's size limit). */
export const fitLength = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;
