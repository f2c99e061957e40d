import type { QueryInterface } from 'sequelize';
import * as m20261121133000 from './20261121133000-accounts-api-keys';
import * as m20261121133100 from './20261121133100-campaigns';
import * as m20261121160000 from './20261121160000-pipeline';
import * as m20261121190000 from './20261121190000-campaign-schedule';
import * as m20261122090000 from './20261122090000-webhooks';
import * as m20261122100000 from './20261122100000-webhook-delivery-origin';
import * as m20261122110000 from './20261122110000-rate-limits';
import * as m20261125100000 from './20261125100000-lead-profile';
import * as m20261125120000 from './20261125120000-campaign-audience';
import * as m20261125140000 from './20261125140000-smtp-transaction';
import * as m20261127100000 from './20261127100000-sequences';
import * as m20261127120000 from './20261127120000-lead-roles-places';
import * as m20261128090000 from './20261128090000-dashboard-sessions';
import * as m20261128100000 from './20261128100000-campaign-reports';
import * as m20261129090000 from './20261129090000-lead-lists';
import * as m20261129091000 from './20261129091000-blocklist';
import * as m20261129092000 from './20261129092000-lead-verification';
import * as m20261129093000 from './20261129093000-enrolment';
import * as m20261130090000 from './20261130090000-schedule-rules';
import * as m20261130091000 from './20261130091000-idempotency';
import * as m20261130092000 from './20261130092000-campaign-changes';
import * as m20261130093000 from './20261130093000-campaign-drafts';
import * as m20261201090000 from './20261201090000-reply-labels';
import * as m20261201091000 from './20261201091000-lead-answers';
import * as m20261201092000 from './20261201092000-campaign-mailboxes';
import * as m20261201093000 from './20261201093000-webhook-catch-up';
import * as m20261201094000 from './20261201094000-thread-indexes';

export interface Migration {
  readonly name: string;
  up(q: QueryInterface): Promise<void>;
  down(q: QueryInterface): Promise<void>;
}

/** In order of application. Names are timestamps, so they sort the same way. */
export const MIGRATIONS: readonly Migration[] = [
  { name: '20261121133000-accounts-api-keys', ...m20261121133000 },
  { name: '20261121133100-campaigns', ...m20261121133100 },
  { name: '20261121160000-pipeline', ...m20261121160000 },
  { name: '20261121190000-campaign-schedule', ...m20261121190000 },
  { name: '20261122090000-webhooks', ...m20261122090000 },
  { name: '20261122100000-webhook-delivery-origin', ...m20261122100000 },
  { name: '20261122110000-rate-limits', ...m20261122110000 },
  { name: '20261125100000-lead-profile', ...m20261125100000 },
  { name: '20261125120000-campaign-audience', ...m20261125120000 },
  { name: '20261125140000-smtp-transaction', ...m20261125140000 },
  { name: '20261127100000-sequences', ...m20261127100000 },
  { name: '20261127120000-lead-roles-places', ...m20261127120000 },
  { name: '20261128090000-dashboard-sessions', ...m20261128090000 },
  { name: '20261128100000-campaign-reports', ...m20261128100000 },
  { name: '20261129090000-lead-lists', ...m20261129090000 },
  { name: '20261129091000-blocklist', ...m20261129091000 },
  { name: '20261129092000-lead-verification', ...m20261129092000 },
  { name: '20261129093000-enrolment', ...m20261129093000 },
  { name: '20261130090000-schedule-rules', ...m20261130090000 },
  { name: '20261130091000-idempotency', ...m20261130091000 },
  { name: '20261130092000-campaign-changes', ...m20261130092000 },
  { name: '20261130093000-campaign-drafts', ...m20261130093000 },
  { name: '20261201090000-reply-labels', ...m20261201090000 },
  { name: '20261201091000-lead-answers', ...m20261201091000 },
  { name: '20261201092000-campaign-mailboxes', ...m20261201092000 },
  { name: '20261201093000-webhook-catch-up', ...m20261201093000 },
  { name: '20261201094000-thread-indexes', ...m20261201094000 },
];
