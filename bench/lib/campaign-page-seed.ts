import type { Sequelize } from 'sequelize';
import { newId } from '../../src/accounts/ids';
import type { CampaignSequence } from '../../src/campaigns/model/sequence';

/**
 * One campaign with `emails` sent emails and the life that follows them, written in a few SQL
 * statements (the shape of test/support/campaign-seed.ts seedBulkFacts, at scale): every section of
 * the campaign page has rows. Deterministic: email n's send time and outcome are functions of n.
 *
 *   - a written sequence of three steps (A/B test on the first); emails: 60% first step (A/B
 *     alternate), 30% second, 10% third, each lead emailed once per step;
 *   - sends spread over the last 30 days (every local day of the chart has some);
 *   - facts per email: sent; bounced 2.5% or delivered; opened 42%; clicked 8% (of those opened);
 *     replied 3% (a `replies` row each, five categories), meetings 0.6%, unsubscribed 0.5%;
 *     opens, clicks and replies 0-19 hours after the send (never after now);
 *   - auto-replies (1%, no fact), 200 step skips, four weekly reports sent;
 *   - costs: sending per email, AI writing per email of the two AI steps, enrichment per lead.
 */

export const SEED_SEQUENCE: CampaignSequence = {
  source: 'custom',
  preset: null,
  steps: [
    {
      delayDays: 0,
      variants: [
        { id: 'A', weight: 1, mode: 'template', subject: 'Payments at {{ company }}', body: 'Hi {{ first_name | default: "there" }},\n\nQuick question about {{ company }}.\n\n{{ sender.name }}', instructions: null },
        { id: 'B', weight: 1, mode: 'template', subject: 'A question for {{ company }}', body: 'Hello {{ first_name | default: "there" }},\n\nIs settlement speed a topic at {{ company }}?\n\n{{ sender.name }}', instructions: null },
      ],
      autoWinner: { metric: 'reply_rate', minSends: 100, confidence: 0.95 },
    },
    { delayDays: 3, variants: [{ id: 'A', weight: 1, mode: 'ai', subject: null, body: null, instructions: 'A short follow-up with one customer story.' }], autoWinner: null },
    { delayDays: 5, variants: [{ id: 'A', weight: 1, mode: 'ai', subject: null, body: null, instructions: 'The last email: close the loop politely.' }], autoWinner: null },
  ],
};

export interface SeededCampaign {
  readonly campaignId: string;
  readonly emails: number;
  readonly leads: number;
  readonly replies: number;
  readonly factRows: number;
  readonly costRows: number;
}

/** Emails per step (first, second, third) as shares of the total. */
const STEP_SHARE = [0.6, 0.3, 0.1] as const;

export async function seedCampaignPage(sequelize: Sequelize, accountId: string, emails: number): Promise<SeededCampaign> {
  const campaignId = newId('cmp');
  const first = Math.round(emails * STEP_SHARE[0]);
  const second = Math.round(emails * STEP_SHARE[1]);
  const leads = first;
  const q = (sql: string, bind: unknown[]) => sequelize.query(sql, { bind });

  await q(
    `INSERT INTO campaigns (id, account_id, created_via, name, mcp, target_url, brand_id, target_audience, audience_filters, audience_source,
                            audience_matched_leads, budget_max_daily_usd, budget_max_weekly_usd, budget_max_monthly_usd, schedule_frequency,
                            timezone, reporting_frequency, reporting_email, status, started_at, created_at)
     VALUES ($1, $2, 'a', 'Q4 fintech CTOs', 'sales_outreach', 'https://acme.example', 'acme.example', 'CTOs of fintechs in Berlin',
             $3::jsonb, 'parser', $4, 120, 700, 2500, 'weekdays', 'Europe/Berlin', 'weekly', 'ceo@acme.example', 'running',
             now() - interval '31 days', now() - interval '32 days')`,
    [campaignId, accountId, JSON.stringify({ titles: ['CTO'], locations: ['Berlin'], industries: ['fintech'] }), leads],
  );
  await q(`INSERT INTO campaign_sequences (campaign_id, version, sequence) VALUES ($1, 1, $2::jsonb)`, [campaignId, JSON.stringify(SEED_SEQUENCE)]);
  await q(`UPDATE campaigns SET sequence_version = 1 WHERE id = $1`, [campaignId]);

  await q(
    `INSERT INTO leads (id, account_id, email, first_name, last_name, company, title, city, country, source)
     SELECT $2 || '_l' || n, $1, 'lead' || n || '@company' || (n % 9000) || '.example', 'Lead', 'Number ' || n, 'Company ' || (n % 9000), 'CTO', 'Berlin', 'Germany', 'import'
       FROM generate_series(1, $3::int) AS n`,
    [accountId, campaignId, leads],
  );

  // Email n: step and lead from its position; the send time scattered over 30 days by a
  // multiplicative hash of n (25.92 s steps: 100,000 of them make 30 days).
  await q(
    `INSERT INTO emails (id, account_id, campaign_id, lead_id, step, variant, starts_thread, from_email, to_email, subject, message_id, status, attempts, sent_at)
     SELECT $2 || '_e' || n, $1, $2, $2 || '_l' || x.lead, x.step, CASE WHEN x.step = 0 AND n % 2 = 0 THEN 'B' ELSE 'A' END, x.step = 0,
            'sam@acme.example', 'lead' || x.lead || '@company' || (x.lead % 9000) || '.example',
            CASE WHEN x.step = 0 THEN 'Payments at Company ' || (x.lead % 9000) ELSE 'Re: Payments at Company ' || (x.lead % 9000) END,
            '<' || $2 || '_e' || n || '@acme.example>', 'sent', 1,
            now() - interval '30 days' + ((n::bigint * 7919) % $3) * (interval '2592000 seconds' / $3)
       FROM generate_series(1, $3::int) AS n
      CROSS JOIN LATERAL (SELECT CASE WHEN n <= $4 THEN 0 WHEN n <= $4 + $5 THEN 1 ELSE 2 END AS step,
                                 CASE WHEN n <= $4 THEN n WHEN n <= $4 + $5 THEN n - $4 ELSE n - $4 - $5 END AS lead) x`,
    [accountId, campaignId, emails, first, second],
  );

  // Outcome bucket r = (n * 31) % 1000 of email n (a permutation of 0..999 over every 1,000 emails).
  const OUTCOMES = `
    SELECT e.id AS email_id, e.lead_id, e.sent_at, n, (n * 31) % 1000 AS r
      FROM generate_series(1, $3::int) AS n JOIN emails e ON e.id = $2 || '_e' || n`;
  await q(
    `INSERT INTO email_events (account_id, campaign_id, email_id, lead_id, type, occurred_at, data, dedupe_key)
     SELECT $1, $2, o.email_id, o.lead_id, t.type,
            least(o.sent_at + t.after * ((o.n % 20) * interval '1 hour' + interval '1 minute'), now()),
            CASE WHEN t.type = 'clicked' THEN jsonb_build_object('url', 'https://acme.example/story') ELSE '{}'::jsonb END,
            t.type || ':' || o.email_id
       FROM (${OUTCOMES}) o
       JOIN (VALUES ('sent', 0, 0, 1000), ('bounced', 0, 0, 25), ('delivered', 0, 25, 1000), ('opened', 1, 25, 445),
                    ('clicked', 1, 25, 105), ('unsubscribed', 1, 430, 435), ('meeting_booked', 1, 400, 406)) AS t(type, after, lo, hi)
         ON o.r >= t.lo AND o.r < t.hi`,
    [accountId, campaignId, emails],
  );

  // Replies (r 400..429: 3%) with their facts, and auto-replies (r 440..449: 1%, not facts).
  await q(
    `INSERT INTO replies (id, account_id, campaign_id, email_id, lead_id, kind, from_email, from_name, to_email, subject, message_id, in_reply_to,
                          body_text, preview, lead_name, lead_company, lead_title, category, sentiment, confidence, received_at)
     SELECT $2 || '_r' || o.n, $1, $2, o.email_id, o.lead_id, k.kind, l.email, l.first_name || ' ' || l.last_name, 'sam@acme.example',
            'Re: Payments at ' || l.company, '<' || $2 || '_r' || o.n || '@company.example>', '<' || o.email_id || '@acme.example>',
            k.body, left(k.body, 140), l.first_name || ' ' || l.last_name, l.company, l.title, k.category, k.sentiment, 0.9,
            least(o.sent_at + (o.n % 20) * interval '1 hour' + interval '2 minutes', now())
       FROM (${OUTCOMES}) o
       JOIN leads l ON l.id = o.lead_id
       JOIN (VALUES ('reply', 400, 406, 'meeting_booked', 'positive', 'Thursday at 10 works, I booked a slot in your calendar.'),
                    ('reply', 406, 412, 'interested', 'positive', 'Interesting timing: we are reviewing our payment stack. Send me more details?'),
                    ('reply', 412, 418, 'neutral', 'neutral', 'Thanks, I forwarded this to our head of payments.'),
                    ('reply', 418, 426, 'not_interested', 'negative', 'Not a priority for us this year, thanks.'),
                    ('reply', 426, 430, 'unsubscribe', 'negative', 'Please remove me from your list.'),
                    ('auto_reply', 440, 450, 'out_of_office', 'neutral', 'I am out of the office until Monday with limited access to email.'))
            AS k(kind, lo, hi, category, sentiment, body)
         ON o.r >= k.lo AND o.r < k.hi`,
    [accountId, campaignId, emails],
  );
  await q(
    `INSERT INTO email_events (account_id, campaign_id, email_id, lead_id, type, occurred_at, data, dedupe_key)
     SELECT r.account_id, r.campaign_id, r.email_id, r.lead_id, 'replied', r.received_at,
            jsonb_build_object('reply_id', r.id, 'sentiment', r.sentiment, 'category', r.category), 'replied:' || r.email_id
       FROM replies r WHERE r.campaign_id = $1 AND r.kind = 'reply'`,
    [campaignId],
  );

  await q(
    `INSERT INTO step_skips (campaign_id, lead_id, step, variant, reason)
     SELECT $1, $1 || '_l' || n, 1, 'A', 'the AI writer had no company description for the lead' FROM generate_series($2::int + 1, $2::int + 200) AS n`,
    [campaignId, second],
  );

  // Costs: what the sender, the writer and the enrichment record, at the time of each send.
  await q(
    `INSERT INTO costs (account_id, campaign_id, category, cost_name, feature_slug, brand_id, amount_usd, idempotency_key, occurred_at)
     SELECT $1, $2, c.category, c.cost_name, c.feature_slug, 'acme.example', c.amount, c.category || ':' || e.id, e.sent_at
       FROM emails e
       JOIN (VALUES ('email_sending', 'smtp', 'email-sending', 0.0004, -1),
                    ('ai_generation', 'openai:gpt-4o-mini', 'email-writing', 0.0021, 1),
                    ('lead_enrichment', 'apollo:people_match', 'lead-enrichment', 0.01, 0)) AS c(category, cost_name, feature_slug, amount, steps)
         ON c.steps = -1 OR (c.steps = 1 AND e.step >= 1) OR (c.steps = 0 AND e.step = 0)
      WHERE e.campaign_id = $2`,
    [accountId, campaignId],
  );

  // Four weekly reports sent (Mondays 08:00 Berlin, roughly), newest last.
  await q(
    `INSERT INTO campaign_reports (id, campaign_id, account_id, kind, period_start, period_end, recipient, status, created_at, sent_at)
     SELECT 'rpt_' || $1 || '_' || w, $1, $2, 'scheduled', date_trunc('week', now()) - (w + 1) * interval '7 days', date_trunc('week', now()) - w * interval '7 days',
            'ceo@acme.example', 'sent', date_trunc('week', now()) - w * interval '7 days' + interval '7 hours', date_trunc('week', now()) - w * interval '7 days' + interval '7 hours 1 minute'
       FROM generate_series(0, 3) AS w`,
    [campaignId, accountId],
  );

  await sequelize.query('ANALYZE leads; ANALYZE emails; ANALYZE email_events; ANALYZE replies; ANALYZE costs; ANALYZE step_skips; ANALYZE campaign_reports');
  const [[counted]] = (await sequelize.query(
    `SELECT (SELECT count(*)::int FROM email_events WHERE campaign_id = $1) AS facts, (SELECT count(*)::int FROM costs WHERE campaign_id = $1) AS costs,
            (SELECT count(*)::int FROM replies WHERE campaign_id = $1 AND kind = 'reply') AS replies`,
    { bind: [campaignId] },
  )) as unknown as [[{ facts: number; costs: number; replies: number }]];
  return { campaignId, emails, leads, replies: counted.replies, factRows: counted.facts, costRows: counted.costs };
}
