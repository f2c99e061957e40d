import { QueryTypes, type Sequelize } from 'sequelize';
import type { EnrichIdentity } from './enrich-identity';
import { LEAD_COLUMNS, toLeadView, type LeadRow, type LeadView } from './lead-view';

/** Reads of an account's stored leads. Every query is scoped by account: ids of others are never found. */

export async function getLead(sequelize: Sequelize, accountId: string, id: string): Promise<LeadView | null> {
  const rows = await sequelize.query<LeadRow>(`SELECT ${LEAD_COLUMNS} FROM leads l WHERE l.account_id = $1 AND l.id = $2`, {
    bind: [accountId, id],
    type: QueryTypes.SELECT,
  });
  return rows[0] === undefined ? null : toLeadView(rows[0]);
}

/** One page of the account's leads, oldest first and by address within one import (leads of one import share its time). */
export async function listLeads(sequelize: Sequelize, accountId: string, page: number, perPage: number): Promise<{ leads: LeadView[]; total: number }> {
  const [rows, count] = await Promise.all([
    sequelize.query<LeadRow>(`SELECT ${LEAD_COLUMNS} FROM leads l WHERE l.account_id = $1 ORDER BY l.created_at, l.email LIMIT $2 OFFSET $3`, {
      bind: [accountId, perPage, (page - 1) * perPage],
      type: QueryTypes.SELECT,
    }),
    sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM leads WHERE account_id = $1`, { bind: [accountId], type: QueryTypes.SELECT }),
  ]);
  return { leads: rows.map(toLeadView), total: Number(count[0]?.n ?? 0) };
}

/**
 * The stored lead an enrichment request names, for accounts without a provider key: by address,
 * by name at the company domain (case-insensitive), or by LinkedIn profile (ignoring the scheme,
 * `www.` and a trailing slash). The oldest wins when a name matches several.
 */
export async function findStoredLead(sequelize: Sequelize, accountId: string, who: EnrichIdentity): Promise<LeadView | null> {
  let where: string;
  let bind: string[];
  switch (who.kind) {
    case 'email':
      where = 'l.email = $2';
      bind = [who.email];
      break;
    case 'name':
      where = 'lower(l.first_name) = lower($2) AND lower(l.last_name) = lower($3) AND l.company_domain = $4';
      bind = [who.firstName, who.lastName, who.domain];
      break;
    case 'linkedin': {
      const canonical = (col: string) => `regexp_replace(lower(${col}), '^https?://(www\\.)?|/+$', '', 'g')`;
      where = `${canonical('l.linkedin_url')} = ${canonical('$2')}`;
      bind = [who.linkedinUrl];
      break;
    }
  }
  const rows = await sequelize.query<LeadRow>(`SELECT ${LEAD_COLUMNS} FROM leads l WHERE l.account_id = $1 AND ${where} ORDER BY l.created_at, l.email LIMIT 1`, {
    bind: [accountId, ...bind],
    type: QueryTypes.SELECT,
  });
  return rows[0] === undefined ? null : toLeadView(rows[0]);
}
