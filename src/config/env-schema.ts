/**
 * Every environment variable the service reads, with its default and what it means.
 * `.env.example` and the docker-compose test are checked against this list, so a new
 * variable is declared here once and nowhere else.
 */
export interface EnvVarSpec {
  readonly name: string;
  /** Default as the string a user would write in the environment; undefined = unset by default. */
  readonly default?: string;
  readonly description: string;
  readonly kind: 'port' | 'url' | 'string' | 'level' | 'boolean' | 'path' | 'integer' | 'decimal';
}

export const ENV_VARS: readonly EnvVarSpec[] = [
  { name: 'PORT', default: '3000', kind: 'port', description: 'Port of the HTTP API (and dashboard).' },
  { name: 'HOST', default: '127.0.0.1', kind: 'string', description: 'Interface the HTTP API binds to (0.0.0.0 in containers).' },
  { name: 'PUBLIC_BASE_URL', kind: 'url', description: 'Public address of the API, used in dashboard and tracking links. Default: http://localhost:$PORT.' },
  { name: 'DATA_DIR', default: './data', kind: 'path', description: 'Directory for everything the embedded default keeps (PostgreSQL cluster, Temporal dev server database).' },
  { name: 'DATABASE_URL', kind: 'url', description: 'postgres:// URL of an external PostgreSQL. Unset: the service runs its own embedded PostgreSQL in $DATA_DIR.' },
  { name: 'DATABASE_POOL_MAX', default: '10', kind: 'integer', description: 'Maximum connections in each process\'s database pool.' },
  { name: 'EMBEDDED_PG_PORT', kind: 'port', description: 'Port of the embedded PostgreSQL. Default: $PORT + 2433 (5433 for PORT=3000).' },
  { name: 'TEMPORAL_ADDRESS', kind: 'string', description: 'host:port of an external Temporal frontend. Unset: `npm start` runs its own Temporal dev server.' },
  { name: 'TEMPORAL_NAMESPACE', default: 'default', kind: 'string', description: 'Temporal namespace of the campaign workflows.' },
  { name: 'TEMPORAL_TASK_QUEUE', default: 'campaign-outreach', kind: 'string', description: 'Task queue the worker polls.' },
  { name: 'TEMPORAL_UI_URL', kind: 'url', description: 'Address of the Temporal Web UI, printed at start. Default with the dev server: http://localhost:$TEMPORAL_UI_PORT.' },
  { name: 'TEMPORAL_DEV_PORT', kind: 'port', description: 'Frontend port of the embedded Temporal dev server. Default: $PORT + 4233 (7233).' },
  { name: 'TEMPORAL_UI_PORT', kind: 'port', description: 'Web UI port of the embedded Temporal dev server. Default: $PORT + 5233 (8233).' },
  { name: 'TEMPORAL_CLI_PATH', kind: 'path', description: 'Use this `temporal` executable instead of the cached or built one.' },
  { name: 'TEMPORAL_TEST_SERVER_PATH', kind: 'path', description: 'Use this time-skipping test server executable (takes the port as its only argument).' },
  { name: 'OUTREACH_CACHE_DIR', kind: 'path', description: 'Cache for the Temporal binaries. Default: $XDG_CACHE_HOME/campaign-outreach/temporal (~/.cache/...).' },
  { name: 'TRUST_PROXY', default: 'false', kind: 'boolean', description: 'Trust X-Forwarded-* headers (set when behind a reverse proxy).' },
  { name: 'VALIDATE_RESPONSES', default: 'false', kind: 'boolean', description: 'Check every JSON response against its documented schema and fail loudly on a mismatch (tests turn it on).' },
  { name: 'LOG_LEVEL', default: 'info', kind: 'level', description: 'pino log level: fatal, error, warn, info, debug, trace or silent.' },
  { name: 'SMTP_URL', kind: 'url', description: 'smtp:// or smtps:// URL (with credentials) used for accounts that have no mailbox of their own. Unset: the worker runs a local SMTP sink and nothing leaves the machine.' },
  { name: 'SMTP_SINK_PORT', kind: 'port', description: 'Port of the local SMTP sink used when SMTP_URL is unset. Default: $PORT + 2025 (5025).' },
  { name: 'INBOUND_SMTP_PORT', kind: 'port', description: 'Port of the SMTP listener that takes replies (inbound mail). Default: $PORT + 2026 (5026).' },
  { name: 'DEFAULT_FROM_EMAIL', default: 'outreach@localhost', kind: 'string', description: 'From address of emails sent through SMTP_URL or the local sink (accounts without a mailbox).' },
  { name: 'TRACKING_SECRET', kind: 'string', description: 'Key that signs open, click and unsubscribe links. Unset: generated once and kept in the database.' },
  { name: 'INBOUND_SECRET', kind: 'string', description: 'Secret a mail relay sends (X-Inbound-Secret) to POST raw replies to /inbound/mime. Unset: generated once and kept in the database (`outreach secrets show`).' },
  { name: 'APOLLO_API_URL', default: 'https://api.apollo.io', kind: 'url', description: 'Base URL of the Apollo-compatible lead provider used by accounts that configured a key.' },
  { name: 'OPENAI_BASE_URL', default: 'https://api.openai.com/v1', kind: 'url', description: 'Base URL of the OpenAI API (accounts with their own OpenAI key).' },
  { name: 'ANTHROPIC_BASE_URL', default: 'https://api.anthropic.com', kind: 'url', description: 'Base URL of the Anthropic API (accounts with their own Anthropic key).' },
  { name: 'PRICE_EMAIL_USD', default: '0.001', kind: 'decimal', description: 'Cost recorded per email sent (email_sending).' },
  { name: 'PRICE_ENRICHMENT_USD', default: '0.02', kind: 'decimal', description: 'Cost recorded per lead enriched through the lead provider (lead_enrichment).' },
  { name: 'RATE_LIMIT_FREE_PER_MINUTE', default: '100', kind: 'integer', description: 'Surface A requests per minute for a Free account (counted in PostgreSQL, shared by every API process).' },
  { name: 'RATE_LIMIT_PRO_PER_MINUTE', default: '1000', kind: 'integer', description: 'Surface A requests per minute for a Pro account.' },
  { name: 'RATE_LIMIT_B_PER_MINUTE', default: '100', kind: 'integer', description: 'Surface B (/v1) requests per minute for any account, counted apart from Surface A.' },
  { name: 'FREE_PLAN_EMAIL_LIMIT', default: '1000', kind: 'integer', description: 'Emails a Free account may send per UTC calendar month; at the limit its running campaigns pause (quota_exceeded).' },
  { name: 'PRO_PLAN_EMAIL_LIMIT', default: '50000', kind: 'integer', description: 'Emails a Pro account may send per UTC calendar month.' },
  { name: 'EGRESS_TIMEOUT_MS', default: '10000', kind: 'integer', description: 'Longest an outbound HTTP request (scrape, provider, webhook) may take, in milliseconds.' },
  { name: 'EGRESS_MAX_BYTES', default: '5000000', kind: 'integer', description: 'Largest outbound HTTP response body read, in bytes.' },
  { name: 'ALLOW_LOOPBACK_EGRESS', default: 'false', kind: 'boolean', description: 'Dev/test only: let outbound HTTP reach loopback addresses (webhooks, scraping). Never in production.' },
  { name: 'EMAIL_DNS_SERVERS', kind: 'string', description: 'DNS servers address verification asks for MX and A records, comma-separated ip[:port] ([ipv6]:port). Unset: the system\'s resolvers.' },
  { name: 'EMAIL_DNS_TIMEOUT_MS', default: '3000', kind: 'integer', description: 'Longest one DNS lookup of address verification may take, in milliseconds; a domain that does not answer in time is verified as unknown (and sent to).' },
  { name: 'EMAIL_VERIFY_RESERVED_DOMAINS', kind: 'string', description: 'What leads on reserved test domains (example.com, *.test, ...) verify as: deliver (they pass and reach the local SMTP sink) or invalid. Unset: invalid when NODE_ENV=production, deliver otherwise.' },
];

export const ENV_VAR_NAMES: ReadonlySet<string> = new Set(ENV_VARS.map((v) => v.name));
