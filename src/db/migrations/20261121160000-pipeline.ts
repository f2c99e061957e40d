import type { QueryInterface } from 'sequelize';

/**
 * The tables of the outreach pipeline: leads and the suppression list, scraped companies,
 * mailboxes and provider keys, sent emails and their events, replies, meetings, costs, and the
 * outbox of domain events. Written as SQL because most of what matters here is constraints
 * (uniqueness that makes retries idempotent, CHECKs that keep bad values out).
 */
const UP = `
CREATE TABLE service_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE account_integrations (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  apollo_api_key TEXT,
  openai_api_key TEXT,
  openai_model TEXT,
  anthropic_api_key TEXT,
  anthropic_model TEXT,
  llm_provider TEXT CHECK (llm_provider IS NULL OR llm_provider IN ('openai', 'anthropic')),
  calcom_webhook_secret TEXT,
  calendly_signing_key TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE leads (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  email TEXT NOT NULL CHECK (email = lower(email) AND position('@' in email) > 1),
  first_name TEXT,
  last_name TEXT,
  title TEXT,
  company TEXT,
  company_domain TEXT,
  industry TEXT,
  city TEXT,
  state TEXT,
  country TEXT,
  linkedin_url TEXT,
  phone TEXT,
  source TEXT NOT NULL CHECK (source IN ('import', 'provider', 'api')),
  external_id TEXT,
  bounced_at TIMESTAMPTZ,
  unsubscribed_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (account_id, email)
);
CREATE INDEX leads_account_created ON leads (account_id, created_at);

CREATE TABLE suppressions (
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  email TEXT NOT NULL CHECK (email = lower(email)),
  reason TEXT NOT NULL CHECK (reason IN ('unsubscribe', 'hard_bounce', 'complaint', 'reply_unsubscribe', 'manual')),
  source_email_id TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, email)
);

CREATE TABLE companies (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  domain TEXT NOT NULL,
  name TEXT,
  description TEXT,
  logo_url TEXT,
  social_links JSONB NOT NULL DEFAULT '{}',
  contact_emails JSONB NOT NULL DEFAULT '[]',
  technologies JSONB NOT NULL DEFAULT '[]',
  industry_keywords JSONB NOT NULL DEFAULT '[]',
  scraped_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (account_id, domain)
);

CREATE TABLE mailboxes (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  from_email TEXT NOT NULL,
  from_name TEXT,
  smtp_url TEXT NOT NULL,
  daily_cap INTEGER NOT NULL DEFAULT 50 CHECK (daily_cap > 0),
  min_gap_seconds INTEGER NOT NULL DEFAULT 60 CHECK (min_gap_seconds >= 0),
  dkim_domain TEXT,
  dkim_selector TEXT,
  dkim_private_key TEXT,
  active BOOLEAN NOT NULL DEFAULT true,
  -- The reservation counters: one UPDATE checks and takes a slot, so two workers never exceed a cap.
  sent_day DATE,
  sent_today INTEGER NOT NULL DEFAULT 0,
  last_sent_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (account_id, from_email),
  CHECK ((dkim_domain IS NULL) = (dkim_selector IS NULL) AND (dkim_domain IS NULL) = (dkim_private_key IS NULL))
);

CREATE TABLE emails (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  campaign_id TEXT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  lead_id TEXT NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
  step INTEGER NOT NULL CHECK (step >= 0),
  mailbox_id TEXT REFERENCES mailboxes(id) ON DELETE SET NULL,
  from_email TEXT NOT NULL,
  to_email TEXT NOT NULL,
  subject TEXT NOT NULL,
  message_id TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL CHECK (status IN ('sending', 'deferred', 'sent', 'bounced', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  smtp_response TEXT,
  error TEXT,
  sent_at TIMESTAMPTZ,
  bounced_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  -- The idempotency key of a send: a retried or replayed activity finds this row instead of sending.
  UNIQUE (campaign_id, lead_id, step)
);
-- No index on sent_at: counts and days of sends come from email_events ('sent' facts, indexed by
-- campaign or account, type and time), and an indexed sent_at would make every send's
-- 'sending' -> 'sent' update write a new entry in every index of the table (no HOT update).

CREATE TABLE email_events (
  id BIGSERIAL PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  campaign_id TEXT REFERENCES campaigns(id) ON DELETE CASCADE,
  email_id TEXT REFERENCES emails(id) ON DELETE CASCADE,
  lead_id TEXT REFERENCES leads(id) ON DELETE SET NULL,
  type TEXT NOT NULL CHECK (type IN ('sent', 'delivered', 'bounced', 'opened', 'clicked', 'replied', 'unsubscribed', 'complained', 'meeting_booked')),
  occurred_at TIMESTAMPTZ NOT NULL,
  data JSONB NOT NULL DEFAULT '{}',
  -- Makes recording an event idempotent (an open is recorded once per email, a click once per link).
  dedupe_key TEXT NOT NULL UNIQUE,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX email_events_campaign_type ON email_events (campaign_id, type, occurred_at);
CREATE INDEX email_events_account_type ON email_events (account_id, type, occurred_at);

CREATE TABLE replies (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  campaign_id TEXT REFERENCES campaigns(id) ON DELETE CASCADE,
  email_id TEXT REFERENCES emails(id) ON DELETE SET NULL,
  lead_id TEXT REFERENCES leads(id) ON DELETE SET NULL,
  kind TEXT NOT NULL CHECK (kind IN ('reply', 'auto_reply', 'bounce')),
  from_email TEXT NOT NULL,
  from_name TEXT,
  to_email TEXT,
  subject TEXT,
  message_id TEXT,
  in_reply_to TEXT,
  body_text TEXT NOT NULL DEFAULT '',
  preview TEXT NOT NULL DEFAULT '',
  lead_name TEXT,
  lead_company TEXT,
  lead_title TEXT,
  category TEXT CHECK (category IS NULL OR category IN ('interested', 'meeting_booked', 'closed', 'neutral', 'not_interested', 'out_of_office', 'unsubscribe')),
  sentiment TEXT CHECK (sentiment IS NULL OR sentiment IN ('positive', 'neutral', 'negative')),
  confidence REAL CHECK (confidence IS NULL OR (confidence >= 0 AND confidence <= 1)),
  next_action TEXT,
  qualified_by TEXT,
  received_at TIMESTAMPTZ NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (account_id, message_id)
);
CREATE INDEX replies_campaign_received ON replies (campaign_id, received_at);

CREATE TABLE meetings (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  campaign_id TEXT REFERENCES campaigns(id) ON DELETE CASCADE,
  lead_id TEXT REFERENCES leads(id) ON DELETE SET NULL,
  provider TEXT NOT NULL CHECK (provider IN ('calcom', 'calendly')),
  external_id TEXT NOT NULL,
  email TEXT NOT NULL,
  name TEXT,
  company TEXT,
  meeting_time TIMESTAMPTZ,
  calendar_link TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (account_id, provider, external_id)
);
CREATE INDEX meetings_campaign ON meetings (campaign_id, created_at);

CREATE TABLE costs (
  id BIGSERIAL PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  campaign_id TEXT REFERENCES campaigns(id) ON DELETE CASCADE,
  category TEXT NOT NULL CHECK (category IN ('ai_generation', 'lead_enrichment', 'email_sending')),
  -- Finer than the category, for /v1/runs/stats/costs: e.g. openai:gpt-4o-mini, apollo:people_match, smtp.
  cost_name TEXT NOT NULL,
  -- What the money bought: email-writing, reply-qualification, lead-enrichment, lead-search, email-sending.
  feature_slug TEXT NOT NULL,
  brand_id TEXT,
  amount_usd NUMERIC(14, 6) NOT NULL CHECK (amount_usd >= 0),
  quantity INTEGER NOT NULL DEFAULT 1,
  details JSONB NOT NULL DEFAULT '{}',
  -- A retried activity records its cost once.
  idempotency_key TEXT NOT NULL UNIQUE,
  occurred_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX costs_campaign_time ON costs (campaign_id, occurred_at);
CREATE INDEX costs_account_time ON costs (account_id, occurred_at);

CREATE TABLE outbox (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  campaign_id TEXT REFERENCES campaigns(id) ON DELETE CASCADE,
  event TEXT NOT NULL,
  data JSONB NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  dispatched_at TIMESTAMPTZ
);
CREATE INDEX outbox_pending ON outbox (created_at) WHERE dispatched_at IS NULL;
`;

const DOWN = `
DROP TABLE IF EXISTS outbox, costs, meetings, replies, email_events, emails, mailboxes, companies,
  suppressions, leads, account_integrations, service_secrets;
`;

export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(UP);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(DOWN);
}
