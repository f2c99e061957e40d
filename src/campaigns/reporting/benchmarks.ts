import { QueryTypes, type Sequelize } from 'sequelize';
import { COUNT_COLUMNS } from './campaign-counts';
import { RATE_DECIMALS, rateSql } from './rates';

/** The spread of one figure across campaigns. */
export interface Distribution {
  readonly average: number;
  readonly p25: number;
  readonly p50: number;
  readonly p75: number;
}

export interface Benchmarks {
  /** Campaigns compared: those (of the template, of any account) that have sent at least one email. */
  readonly sampleSize: number;
  readonly deliveryRate: Distribution;
  readonly openRate: Distribution;
  readonly replyRate: Distribution;
  /** A campaign's recorded costs divided by its emails sent. */
  readonly avgCostPerEmailUsd: Distribution;
}

const USD_DECIMALS = 6;

/** average and quartiles (continuous percentiles, as a spreadsheet's QUARTILE.INC) of one column. */
function distribution(column: string, decimals: number, alias: string): string {
  const r = (expr: string) => `round(coalesce(${expr}, 0)::numeric, ${decimals})::float8`;
  return [
    `${r(`avg(${column})`)} AS "${alias}Average"`,
    `${r(`percentile_cont(0.25) WITHIN GROUP (ORDER BY ${column})`)} AS "${alias}P25"`,
    `${r(`percentile_cont(0.5) WITHIN GROUP (ORDER BY ${column})`)} AS "${alias}P50"`,
    `${r(`percentile_cont(0.75) WITHIN GROUP (ORDER BY ${column})`)} AS "${alias}P75"`,
  ].join(',\n       ');
}

// Every account's campaigns go in, but only these aggregates come out: no campaign's, and so no
// account's, own figures leave the database. Per-campaign rates are those of the statistics
// endpoint (same counts, same ratios), unrounded until the aggregate is.
const SQL = `
WITH scope AS (
  SELECT id FROM campaigns WHERE $1::text IS NULL OR mcp = $1
), counts AS (
  SELECT email_events.campaign_id, ${COUNT_COLUMNS}
    FROM email_events JOIN scope ON scope.id = email_events.campaign_id
   GROUP BY email_events.campaign_id
), spend AS (
  SELECT costs.campaign_id, sum(costs.amount_usd) AS usd
    FROM costs JOIN scope ON scope.id = costs.campaign_id
   GROUP BY costs.campaign_id
), per_campaign AS (
  SELECT ${rateSql('k."delivered"', 'k."emailsSent"')} AS delivery_rate,
         ${rateSql('k."opened"', 'k."delivered"')} AS open_rate,
         ${rateSql('k."replied"', 'k."delivered"')} AS reply_rate,
         coalesce(s.usd, 0)::float8 / k."emailsSent" AS cost_per_email
    FROM counts k LEFT JOIN spend s ON s.campaign_id = k.campaign_id
   WHERE k."emailsSent" > 0
)
SELECT count(*)::int AS "sampleSize",
       ${distribution('delivery_rate', RATE_DECIMALS, 'deliveryRate')},
       ${distribution('open_rate', RATE_DECIMALS, 'openRate')},
       ${distribution('reply_rate', RATE_DECIMALS, 'replyRate')},
       ${distribution('cost_per_email', USD_DECIMALS, 'costPerEmail')}
  FROM per_campaign`;

type Row = { sampleSize: number } & Record<string, number>;

const pick = (row: Row, alias: string): Distribution => ({
  average: row[`${alias}Average`]!,
  p25: row[`${alias}P25`]!,
  p50: row[`${alias}P50`]!,
  p75: row[`${alias}P75`]!,
});

/** Benchmarks over the campaigns of template `mcp`, or of every template when `mcp` is null. */
export async function benchmarks(sequelize: Sequelize, mcp: string | null): Promise<Benchmarks> {
  const rows = await sequelize.query<Row>(SQL, { bind: [mcp], type: QueryTypes.SELECT });
  const row = rows[0]!;
  return {
    sampleSize: row.sampleSize,
    deliveryRate: pick(row, 'deliveryRate'),
    openRate: pick(row, 'openRate'),
    replyRate: pick(row, 'replyRate'),
    avgCostPerEmailUsd: pick(row, 'costPerEmail'),
  };
}
