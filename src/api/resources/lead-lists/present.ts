/**
 * Lead lists on each surface: the domain's values are camelCase, which is Surface B as it is;
 * Surface A gets the same members in snake_case.
 */
import type { AddMembersResult } from '../../../leads/lists/add-members';
import type { LeadList, ListMember } from '../../../leads/lists/list-repository';
import { badRequest } from '../../http/errors';
import { MAX_MEMBERS_PER_CALL } from '../../../leads/lists/add-members';

export const listA = (l: LeadList) => ({ id: l.id, name: l.name, lead_count: l.leadCount, created_at: l.createdAt, updated_at: l.updatedAt });

export const addResultA = (r: AddMembersResult) => ({
  added: r.added,
  already_in_list: r.alreadyInList,
  not_found: { lead_ids: r.notFound.leadIds, emails: r.notFound.emails },
});

export const memberA = (m: ListMember) => ({
  id: m.id,
  email: m.email,
  first_name: m.firstName,
  last_name: m.lastName,
  name: m.name,
  title: m.title,
  company: m.company,
  company_domain: m.companyDomain,
  industry: m.industry,
  city: m.city,
  state: m.state,
  country: m.country,
  linkedin_url: m.linkedinUrl,
  phone: m.phone,
  custom_fields: m.customFields,
  source: m.source,
  created_at: m.createdAt,
  added_at: m.addedAt,
});

/**
 * The checks the schema cannot say in one message: something to add, and no more than the limit
 * across both arrays (each is also limited on its own by the schema, which names it).
 */
export function checkMemberCounts(idsField: string, ids: readonly string[] | undefined, emails: readonly string[] | undefined): void {
  const n = (ids?.length ?? 0) + (emails?.length ?? 0);
  if (n === 0) throw badRequest(`body must name at least one lead in ${idsField} or emails`);
  if (n > MAX_MEMBERS_PER_CALL) throw badRequest(`body.${idsField} and body.emails name ${n} leads together; at most ${MAX_MEMBERS_PER_CALL} per call`);
}

/** A list name as stored: trimmed (the schema has refused a blank one). */
export const listName = (name: string): string => name.trim();
