/**
 * The events a receiver gets, typed per kind. Member names are the spec's own (snake_case, as on
 * the wire), so what the spec and the delivery log show is what the code reads. The only change
 * from the wire is `reply.received`, whose two forms become one (see ReplyReceivedData).
 */

/** The envelope every event arrives in. */
interface Envelope<K extends string, D> {
  /** The event's id: the same on every attempt and resend, so it is the key to deduplicate on. */
  readonly id: string;
  readonly event: K;
  /** ISO 8601 instant the fact happened. */
  readonly created_at: string;
  /** The campaign it concerns; null for events of no campaign (the test event). */
  readonly campaign_id: string | null;
  readonly data: D;
  /** True for the kinds below; false for a kind this version does not know (UnknownWebhookEvent). */
  readonly known: true;
}

export type BudgetType = 'daily' | 'weekly' | 'monthly';

/** Delivery figures of a campaign so far. */
export interface CampaignStats {
  readonly emails_sent: number;
  readonly delivered: number;
  readonly opened: number;
  readonly replied: number;
}

export interface CampaignStartedData {
  readonly mcp: string;
  readonly target_url: string;
}

export interface CampaignMilestoneData {
  /** `<count>_emails` (100, 500, 1000); the form `<count>_emails_sent` also appears. */
  readonly milestone: string;
  readonly stats: CampaignStats;
}

export interface CampaignPausedData {
  /** manual, budget_exceeded or quota_exceeded (more may come). */
  readonly reason: 'manual' | 'budget_exceeded' | 'quota_exceeded' | (string & {});
  readonly budget_spent_usd: number;
  /** Null when the campaign has no limit for the window reported (a manual pause). */
  readonly budget_limit_usd: number | null;
}

export interface CampaignCompletedData {
  /** trial_ended or schedule_complete (more may come). */
  readonly reason: 'trial_ended' | 'schedule_complete' | (string & {});
  readonly final_stats: CampaignStats & { readonly meetings_booked: number };
  readonly total_cost_usd: number;
}

/** 80% of a budget used: the payload of both `budget.warning` and `campaign.budget_warning`. */
export interface BudgetWarningData {
  readonly budget_type: BudgetType;
  readonly spent_usd: number;
  readonly limit_usd: number;
  /** Whole percent of the limit spent (80 or more). */
  readonly percentage: number;
}

export interface CampaignBudgetExceededData {
  readonly budget_type: BudgetType;
  readonly spent_usd: number;
  readonly limit_usd: number;
}

/**
 * A reply, in one shape whichever form it arrived in. The full form (reply_id, email, name,
 * company, title, sentiment, preview, received_at) is kept as it is; the integration form's
 * `reply_sentiment` and `reply_preview` become `sentiment` and `preview`, and the members it
 * lacks are null.
 */
export interface ReplyReceivedData {
  /** Null in the integration form. */
  readonly reply_id: string | null;
  /** Who replied. */
  readonly email: string;
  readonly name: string | null;
  readonly company: string | null;
  /** Null in the integration form, and when someone other than the lead replied. */
  readonly title: string | null;
  /** positive, neutral or negative as the service sends it; null when a payload carries none. */
  readonly sentiment: 'positive' | 'neutral' | 'negative' | (string & {}) | null;
  /** The start of the reply's text; null when a payload carries none. */
  readonly preview: string | null;
  /** ISO 8601; null in the integration form (the envelope's created_at is then the best guide). */
  readonly received_at: string | null;
}

export interface MeetingBookedData {
  readonly email: string;
  readonly name: string | null;
  readonly company: string | null;
  /** ISO 8601; null when the calendar did not say. */
  readonly meeting_time: string | null;
  readonly calendar_link: string | null;
}

/** A step's variant test decided (`auto_winner` of a campaign's sequence): the winner takes the step's later sends. */
export interface CampaignVariantWinnerData {
  /** The step, 1 for the first email. */
  readonly step: number;
  /** A to E. */
  readonly variant: string;
  readonly metric: 'reply_rate' | 'positive_reply_rate' | (string & {});
  readonly min_sends: number;
  readonly confidence: number;
  /** Of the two-proportion test, Bonferroni-corrected: at most 1 - confidence. */
  readonly p_value: number;
  /** The figures it was decided on, per variant. */
  readonly variants: ReadonlyArray<{ readonly variant: string; readonly sent: number; readonly delivered: number; readonly successes: number; readonly rate: number }>;
}

/** What the dashboard's "Send test event" (and the API's test call) posts. */
export interface WebhookTestData {
  readonly message?: string;
  readonly requested_at?: string;
  readonly [member: string]: unknown;
}

export type CampaignStartedEvent = Envelope<'campaign.started', CampaignStartedData>;
export type CampaignMilestoneEvent = Envelope<'campaign.milestone', CampaignMilestoneData>;
export type CampaignPausedEvent = Envelope<'campaign.paused', CampaignPausedData>;
export type CampaignCompletedEvent = Envelope<'campaign.completed', CampaignCompletedData>;
export type CampaignBudgetWarningEvent = Envelope<'campaign.budget_warning', BudgetWarningData>;
export type CampaignBudgetExceededEvent = Envelope<'campaign.budget_exceeded', CampaignBudgetExceededData>;
export type BudgetWarningEvent = Envelope<'budget.warning', BudgetWarningData>;
export type ReplyReceivedEvent = Envelope<'reply.received', ReplyReceivedData>;
export type MeetingBookedEvent = Envelope<'meeting.booked', MeetingBookedData>;
export type CampaignVariantWinnerEvent = Envelope<'campaign.variant_winner', CampaignVariantWinnerData>;
export type WebhookTestEvent = Envelope<'webhook.test', WebhookTestData>;

/** Every kind this version knows: narrow on `event` (after checking `known`). */
export type KnownWebhookEvent =
  | CampaignStartedEvent
  | CampaignMilestoneEvent
  | CampaignPausedEvent
  | CampaignCompletedEvent
  | CampaignBudgetWarningEvent
  | CampaignBudgetExceededEvent
  | BudgetWarningEvent
  | ReplyReceivedEvent
  | MeetingBookedEvent
  | CampaignVariantWinnerEvent
  | WebhookTestEvent;

/**
 * A kind added after this version: returned as it came, not rejected, so a receiver keeps working
 * (and answering 2xx) when the service starts sending something new.
 */
export interface UnknownWebhookEvent {
  readonly id: string;
  readonly event: string;
  readonly created_at: string;
  readonly campaign_id: string | null;
  readonly data: Readonly<Record<string, unknown>>;
  readonly known: false;
}

/**
 * A parsed event. `known` is the discriminant that lets TypeScript narrow: an unknown kind's
 * `event` is any string, so `switch (event.event)` narrows only once `known` is checked.
 *
 *   const event = parseWebhookEvent(rawBody);
 *   if (!event.known) return;              // a kind added later
 *   switch (event.event) {
 *     case 'reply.received': event.data.sentiment; ...
 *   }
 */
export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;

export type KnownWebhookEventKind = KnownWebhookEvent['event'];
