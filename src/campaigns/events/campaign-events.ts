import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { CampaignEvent } from '../model/status';
import { campaignCounts } from '../reporting/campaign-counts';
import { campaignCosts } from '../reporting/cost-breakdown';
import { deterministicEventId } from './event-ids';

/** Events the campaign workflow asks the outbox to carry, all at one instant. */
export interface CampaignEventBatch {
  readonly campaignId: string;
  readonly accountId: string;
  /** ISO instant (workflow time): the events' created_at. */
  readonly at: string;
  /** Which request wrote them (`transition:paused`, `events`): part of every id, so two requests never share one. */
  readonly source: string;
  readonly events: readonly CampaignEvent[];
}

/** The members an event's `fill` asks for, read from the database (authoritative for statistics). */
export interface EventFills {
  readonly stats?: { emails_sent: number; delivered: number; opened: number; replied: number };
  readonly finalStats?: { emails_sent: number; delivered: number; opened: number; replied: number; meetings_booked: number };
  readonly totalCostUsd?: number;
}

/** Reads what the events' `fill` asks for (nothing when none asks); before the transaction that writes them. */
export async function readEventFills(sequelize: Sequelize, campaignId: string, events: readonly CampaignEvent[]): Promise<EventFills> {
  const wanted = new Set(events.map((e) => e.fill).filter((f) => f !== undefined));
  if (wanted.size === 0) return {};
  const c = await campaignCounts(sequelize, campaignId);
  const stats = { emails_sent: c.emailsSent, delivered: c.delivered, opened: c.opened, replied: c.replied };
  if (!wanted.has('final_stats')) return { stats };
  const costs = await campaignCosts(sequelize, campaignId);
  return { stats, finalStats: { ...stats, meetings_booked: c.meetingsBooked }, totalCostUsd: costs.totalUsd };
}

function filled(event: CampaignEvent, fills: EventFills): Record<string, unknown> {
  if (event.fill === 'stats') return { ...event.data, stats: fills.stats };
  if (event.fill === 'final_stats') return { ...event.data, final_stats: fills.finalStats, total_cost_usd: fills.totalCostUsd };
  return { ...event.data };
}

/**
 * Writes the batch's events to the outbox in the caller's transaction, with `campaign_id` set and
 * `created_at` = the batch's instant. Each id is derived from the request (see
 * deterministicEventId), never from the filled-in figures, so a retried activity inserts nothing
 * twice (ON CONFLICT on the id) even when the statistics moved in between; the first write's
 * figures stand. Returns how many events were new.
 */
export async function writeCampaignEvents(sequelize: Sequelize, tx: Transaction, batch: CampaignEventBatch, fills: EventFills): Promise<number> {
  let inserted = 0;
  for (const [index, event] of batch.events.entries()) {
    const id = deterministicEventId([batch.campaignId, batch.at, batch.source, index, event.event, event.data, event.fill ?? null]);
    const rows = await sequelize.query(
      `INSERT INTO outbox (id, account_id, campaign_id, event, data, created_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6::timestamptz)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      { bind: [id, batch.accountId, batch.campaignId, event.event, JSON.stringify(filled(event, fills)), batch.at], type: QueryTypes.SELECT, transaction: tx },
    );
    inserted += rows.length;
  }
  return inserted;
}
