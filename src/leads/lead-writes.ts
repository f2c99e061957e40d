import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { newId } from '../accounts/ids';
import type { LeadInput } from './fields';
import { LEAD_COLUMNS, type LeadRow, type LeadSourceName } from './lead-view';

/** The input columns in the order of every multi-row VALUES list below. */
const INPUT_COLUMNS = [
  'email',
  'first_name',
  'last_name',
  'title',
  'company',
  'company_domain',
  'industry',
  'city',
  'state',
  'country',
  'linkedin_url',
  'phone',
] as const;

const inputValues = (l: LeadInput): Array<string | null> => [
  l.email,
  l.firstName,
  l.lastName,
  l.title,
  l.company,
  l.companyDomain,
  l.industry,
  l.city,
  l.state,
  l.country,
  l.linkedinUrl,
  l.phone,
];

/** Leads per statement at most: 14 bound values a row keep a statement far below PostgreSQL's 65,535. */
export const MAX_ROWS_PER_STATEMENT = 1000;

interface Values {
  readonly sql: string;
  readonly bind: Array<string | null>;
}

/** `(id, account_id, <inputs>, source, external_id)` tuples with numbered placeholders. */
function valuesList(accountId: string, source: LeadSourceName, leads: ReadonlyArray<LeadInput & { readonly externalId?: string | null }>): Values {
  const bind: Array<string | null> = [accountId, source];
  const tuples = leads.map((l) => {
    const start = bind.length;
    bind.push(newId('lead'), ...inputValues(l), l.externalId ?? null);
    const own = Array.from({ length: INPUT_COLUMNS.length + 2 }, (_, i) => `$${start + i + 1}`);
    // id, account_id ($1), inputs..., source ($2), external_id
    return `(${own[0]}, $1, ${own.slice(1, -1).join(', ')}, $2, ${own[own.length - 1]})`;
  });
  return { sql: tuples.join(',\n'), bind };
}

const INSERT_HEAD = `INSERT INTO leads AS l (id, account_id, ${INPUT_COLUMNS.join(', ')}, source, external_id) VALUES`;

/**
 * Inserts the leads whose address the account does not have yet, in one statement, and returns
 * how many were new. Existing leads are left as they are (an import never rewrites a lead that may
 * be in a running campaign). Addresses must already be lower-cased.
 */
export async function insertNewLeads(sequelize: Sequelize, tx: Transaction, accountId: string, source: LeadSourceName, leads: readonly LeadInput[]): Promise<number> {
  if (leads.length === 0) return 0;
  if (leads.length > MAX_ROWS_PER_STATEMENT) throw new RangeError(`at most ${MAX_ROWS_PER_STATEMENT} leads per statement`);
  const v = valuesList(accountId, source, leads);
  const rows = await sequelize.query<{ id: string }>(`${INSERT_HEAD}\n${v.sql}\nON CONFLICT (account_id, email) DO NOTHING RETURNING l.id`, {
    bind: v.bind,
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return rows.length;
}

export interface ProviderLead extends LeadInput {
  /** The provider's id of the person (Apollo's person id). */
  readonly externalId: string | null;
}

/**
 * Stores leads found or enriched through the provider: new addresses are inserted with source
 * 'provider'; for known addresses the provider's values replace the stored ones where the provider
 * has a value (it is the fresher source) and the stored ones stay where it has none. The lead's
 * source and id never change. Returns the stored rows in input order (one per distinct address).
 */
export async function upsertProviderLeads(sequelize: Sequelize, tx: Transaction | null, accountId: string, leads: readonly ProviderLead[]): Promise<LeadRow[]> {
  // One statement may not touch a row twice: keep the first of each address.
  const first = new Map<string, ProviderLead>();
  for (const l of leads) if (!first.has(l.email)) first.set(l.email, l);
  const unique = [...first.values()];
  if (unique.length === 0) return [];
  if (unique.length > MAX_ROWS_PER_STATEMENT) throw new RangeError(`at most ${MAX_ROWS_PER_STATEMENT} leads per statement`);
  const v = valuesList(accountId, 'provider', unique);
  const sets = INPUT_COLUMNS.filter((c) => c !== 'email').map((c) => `${c} = COALESCE(EXCLUDED.${c}, l.${c})`);
  sets.push('external_id = COALESCE(EXCLUDED.external_id, l.external_id)', 'updated_at = now()');
  const rows = await sequelize.query<LeadRow>(
    `${INSERT_HEAD}\n${v.sql}\nON CONFLICT (account_id, email) DO UPDATE SET ${sets.join(', ')} RETURNING ${LEAD_COLUMNS}`,
    { bind: v.bind, type: QueryTypes.SELECT, transaction: tx },
  );
  const byEmail = new Map(rows.map((r) => [r.email, r] as const));
  return unique.map((l) => byEmail.get(l.email)).filter((r): r is LeadRow => r !== undefined);
}
