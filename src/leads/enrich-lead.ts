import { randomUUID } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { recordCost } from '../costs/cost-repository';
import type { ApolloClient } from './apollo/client';
import { personToLead } from './apollo/map-person';
import type { ApolloMatchQuery } from './apollo/types';
import type { EnrichIdentity } from './enrich-identity';
import { findStoredLead } from './lead-repository';
import { upsertProviderLeads, type ProviderLead } from './lead-repository';
import { toLeadView, type LeadView } from './lead-view';
import { leadProviderFor, type LeadDeps } from './provider';

export type EnrichOutcome =
  | { readonly found: true; readonly lead: LeadView; readonly source: 'apollo' | 'leads_store' }
  /** `reason` 'no_email': Apollo knows the person but has no address for them (the lookup was still charged). */
  | { readonly found: false; readonly reason: 'no_match' | 'no_email' };

export interface EnrichOptions {
  /** Charged to this campaign (its budget), or to the account alone. */
  readonly campaignId?: string | null;
  /** Names this enrichment for the cost record: a retried call with the same key is charged once. */
  readonly idempotencyKey?: string;
}

/** The charge for one people match: `config.prices.enrichmentUsd`, category lead_enrichment. */
export async function recordEnrichmentCost(
  deps: LeadDeps,
  tx: Transaction,
  accountId: string,
  details: { campaignId: string | null; apolloId: string; by: string; idempotencyKey: string },
): Promise<void> {
  await recordCost(deps.sequelize, tx, {
    accountId,
    campaignId: details.campaignId,
    category: 'lead_enrichment',
    costName: 'apollo:people_match',
    featureSlug: 'lead-enrichment',
    amountUsd: deps.config.prices.enrichmentUsd,
    details: { apollo_person_id: details.apolloId, by: details.by },
    idempotencyKey: details.idempotencyKey,
  });
}

/**
 * Looks up one person through Apollo's people match and stores the result as the account's lead,
 * charging the lookup in the same transaction. A person Apollo matched is charged whether or not
 * it had an address (Apollo spends the credit either way); no match is not charged.
 */
export async function matchAndStore(
  deps: LeadDeps,
  apollo: ApolloClient,
  accountId: string,
  query: ApolloMatchQuery,
  charge: { campaignId: string | null; idempotencyKey: string; by: string; knownEmail?: string | null },
): Promise<{ matched: false } | { matched: true; lead: LeadView | null }> {
  const person = await apollo.matchPerson(query);
  if (person === null) return { matched: false };
  const input: ProviderLead | null = personToLead(person, charge.knownEmail ?? null);
  const lead = await deps.sequelize.transaction(async (tx) => {
    const rows = input === null ? [] : await upsertProviderLeads(deps.sequelize, tx, accountId, [input]);
    await recordEnrichmentCost(deps, tx, accountId, { campaignId: charge.campaignId, apolloId: person.id, by: charge.by, idempotencyKey: charge.idempotencyKey });
    return rows[0] === undefined ? null : toLeadView(rows[0]);
  });
  return { matched: true, lead };
}

const toMatchQuery = (who: EnrichIdentity): ApolloMatchQuery =>
  who.kind === 'email' ? { email: who.email } : who.kind === 'linkedin' ? { linkedinUrl: who.linkedinUrl } : { firstName: who.firstName, lastName: who.lastName, domain: who.domain };

/**
 * Enriches one person: through Apollo (stored, charged) when the account has a key, otherwise
 * from the account's stored leads (free).
 */
export async function enrichLead(deps: LeadDeps, accountId: string, who: EnrichIdentity, opts: EnrichOptions = {}): Promise<EnrichOutcome> {
  const apollo = await leadProviderFor(deps, accountId);
  if (apollo === null) {
    const lead = await findStoredLead(deps.sequelize, accountId, who);
    return lead === null ? { found: false, reason: 'no_match' } : { found: true, lead, source: 'leads_store' };
  }
  const result = await matchAndStore(deps, apollo, accountId, toMatchQuery(who), {
    campaignId: opts.campaignId ?? null,
    idempotencyKey: opts.idempotencyKey ?? `lead-enrich:${randomUUID()}`,
    by: who.kind,
    // Asked by address: Apollo may leave `email` out of its answer, but the caller already has it.
    knownEmail: who.kind === 'email' ? who.email : null,
  });
  if (!result.matched) return { found: false, reason: 'no_match' };
  return result.lead === null ? { found: false, reason: 'no_email' } : { found: true, lead: result.lead, source: 'apollo' };
}
