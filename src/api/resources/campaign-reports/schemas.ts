import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/common-schemas';
import { StringEnum } from '../string-enum';
import { Nullable } from '../campaigns/schemas';
import { CasedObject, type Casing } from '../campaigns/casing';

/**
 * The campaign reports' schemas, written once and cased per surface (casing.ts): snake_case on
 * Surface A, camelCase on Surface B.
 */

const KINDS = ['scheduled', 'final', 'on_demand'] as const;
const STATUSES = ['pending', 'sent', 'failed', 'skipped'] as const;

/** `{ "email": ... }`: the recipient of this one report, instead of the campaign's reporting.email. */
export const ReportRequestBody = Type.Object(
  { email: Type.Optional(Type.String({ format: 'email', maxLength: 320, description: "Send this report here instead of the campaign's reporting.email." })) },
  { additionalProperties: false },
);

export const CampaignReport = <C extends Casing>(casing: C) =>
  CasedObject(
    casing,
    {
      id: Type.String(),
      campaign_id: Type.String(),
      kind: StringEnum(KINDS, { description: 'scheduled (at its time), final (the campaign ended) or on_demand (asked for).' }),
      period: Type.Object(
        { start: Timestamp, end: Timestamp },
        { additionalProperties: false, description: 'The facts the report counts: occurred at or after start and before end.' },
      ),
      recipient: Nullable(Type.String(), 'Where it was sent; null for a skipped report (no reporting email).'),
      status: StringEnum(STATUSES, { description: 'pending (being sent), sent, failed (the mail server refused it) or skipped (nobody to send to).' }),
      sent_at: Nullable(Timestamp),
      created_at: Timestamp,
      error: Nullable(Type.String(), 'Why it failed.'),
    },
    { additionalProperties: false },
  );

export const ReportListQuery = <C extends Casing>(casing: C) =>
  CasedObject(
    casing,
    {
      page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1.' })),
      per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Reports per page, at most 100.' })),
    },
    { additionalProperties: false },
  );

export const ReportList = <C extends Casing>(casing: C) =>
  CasedObject(
    casing,
    {
      campaign_id: Type.String(),
      reports: Type.Array(CampaignReport(casing)),
      pagination: CasedObject(casing, { total: Type.Integer({ minimum: 0 }), page: Type.Integer({ minimum: 1 }), per_page: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
    },
    { additionalProperties: false },
  );
