/**
 * A campaign's leads on each surface: the domain's rows in snake_case (Surface A) or camelCase
 * (Surface B), the counts through the campaign's own presenters.
 */
import type { Static } from '@sinclair/typebox';
import type { EnrolmentPage, EnrolmentRow } from '../../../campaigns/enrolment/enrolment-repository';
import { cased, type Cased, type Casing } from '../campaigns/casing';
import { stateCountsCamel, stateCountsSnake } from '../campaigns/present-lead-control';
import type { EnrolByHandResult } from '../../../campaigns/control/enrol-by-hand';
import type { A, B } from './schemas';

const nameOf = (r: EnrolmentRow): string | null => [r.firstName, r.lastName].filter((p) => p !== null && p.trim() !== '').join(' ') || null;

/** A detail's members camelCase on Surface B (the domain writes them snake_case). */
const camelKeys = (detail: Record<string, unknown> | null): Record<string, unknown> | null =>
  detail === null ? null : Object.fromEntries(Object.entries(detail).map(([k, v]) => [k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()), v]));

export function enrolResultA(r: EnrolByHandResult): Static<typeof A.EnrolResult> {
  return { added: r.added, skipped: r.skipped, already_enrolled: r.alreadyEnrolled, not_found: r.notFound };
}

export function enrolResultB(r: EnrolByHandResult): Static<typeof B.EnrolResult> {
  return { added: r.added, skipped: r.skipped, alreadyEnrolled: r.alreadyEnrolled, notFound: r.notFound };
}

type Source = Static<typeof A.EnrolledLead>['source'];

/** `values` with its member names, written snake_case, in `casing`: CasedObject's twin for a value. */
function casedValues<C extends Casing, T extends Record<string, unknown>>(casing: C, values: T): { [K in keyof T & string as Cased<C, K>]: T[K] } {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [cased(casing, name), value])) as { [K in keyof T & string as Cased<C, K>]: T[K] };
}

/** One enrolment as a lead of the page, in `casing`. */
function enrolledLead<C extends Casing>(casing: C, r: EnrolmentRow) {
  return casedValues(casing, {
    id: r.leadId,
    email: r.email,
    name: nameOf(r),
    company: r.company,
    state: r.state,
    step: r.step,
    next_send_date: r.nextSendDate,
    reason: r.reason,
    detail: casing === 'camel' ? camelKeys(r.detail) : r.detail,
    source: r.source as Source,
    verification: r.verification,
    time_zone: r.timeZone,
    time_zone_source: r.timeZoneSource,
    enrolled_at: r.enrolledAt,
    updated_at: r.updatedAt,
  });
}

export function leadsPageA(campaignId: string, p: EnrolmentPage, page: number, perPage: number): Static<typeof A.LeadsPage> {
  return {
    campaign_id: campaignId,
    leads: p.leads.map((r) => enrolledLead('snake', r)),
    counts: stateCountsSnake(p.states),
    pagination: { total: p.total, page, per_page: perPage },
  };
}

export function leadsPageB(campaignId: string, p: EnrolmentPage, page: number, perPage: number): Static<typeof B.LeadsPage> {
  return {
    campaignId,
    leads: p.leads.map((r) => enrolledLead('camel', r)),
    counts: stateCountsCamel(p.states),
    pagination: { total: p.total, page, perPage },
  };
}

/**
 * What the schema cannot say in one message: something to enrol, and no more than the limit across
 * both arrays (each is limited on its own by the schema, which names it).
 */
export function enrolCountProblem(idsField: string, ids: readonly string[] | undefined, emails: readonly string[] | undefined, max: number): string | null {
  const n = (ids?.length ?? 0) + (emails?.length ?? 0);
  if (n === 0) return `body must name at least one lead in ${idsField} or emails`;
  if (n > max) return `body.${idsField} and body.emails name ${n} leads together; at most ${max} per call`;
  return null;
}
