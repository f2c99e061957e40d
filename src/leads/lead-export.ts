/**
 * Every lead of an account as rows of an export file (GET /v1/leads/export): the lead's fields,
 * then one column per custom field name any of the account's leads has. The names are read first
 * (the CSV header needs them before the first row), then the leads through a server-side cursor,
 * both in one snapshot so a lead imported meanwhile cannot bring a name the header lacks.
 */
import type { Readable } from 'node:stream';
import type { Sequelize } from 'sequelize';
import { openSnapshotRows } from '../campaigns/reporting/export-rows';
import type { CustomFields } from './custom-fields';
import type { LeadSourceName } from './lead-view';

/** One lead as a row of the export: the fields of the lead view, the raw context an import carries, its custom fields. */
export interface LeadExportRow {
  readonly id: string;
  readonly email: string;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly name: string | null;
  readonly title: string | null;
  readonly company: string | null;
  readonly companyDomain: string | null;
  readonly industry: string | null;
  readonly city: string | null;
  readonly state: string | null;
  readonly country: string | null;
  readonly linkedinUrl: string | null;
  readonly phone: string | null;
  /** As imported or sent by the provider ("Director", "51-200"): what the profile was read from. */
  readonly seniority: string | null;
  readonly department: string | null;
  readonly companySize: string | null;
  readonly source: LeadSourceName;
  /** ISO 8601 UTC, millisecond precision. */
  readonly createdAt: string;
  /** The last address verification's verdict, when it ran, and each check as "result: detail" (docs/verification.md); null when never checked. */
  readonly verification: string | null;
  readonly verifiedAt: string | null;
  readonly verificationSyntax: string | null;
  readonly verificationRole: string | null;
  readonly verificationDisposable: string | null;
  readonly verificationMailDomain: string | null;
  readonly customFields: CustomFields | null;
}

/** The lead columns of the export, in file order (the custom fields' columns follow). */
export const LEAD_EXPORT_FIELDS = [
  'id',
  'email',
  'firstName',
  'lastName',
  'name',
  'title',
  'company',
  'companyDomain',
  'industry',
  'city',
  'state',
  'country',
  'linkedinUrl',
  'phone',
  'seniority',
  'department',
  'companySize',
  'source',
  'createdAt',
  'verification',
  'verifiedAt',
  'verificationSyntax',
  'verificationRole',
  'verificationDisposable',
  'verificationMailDomain',
] as const satisfies ReadonlyArray<keyof LeadExportRow>;

// Byte order (COLLATE "C"), so the columns come in the same order on every server.
const NAMES_SQL = `
SELECT DISTINCT k.name COLLATE "C" AS name
  FROM leads l CROSS JOIN LATERAL jsonb_object_keys(l.custom_fields) AS k(name)
 WHERE l.account_id = $1 AND l.erased_at IS NULL AND l.custom_fields IS NOT NULL
 ORDER BY 1`;

// Oldest first and by address within one import, as GET /v1/leads lists them. Timestamps are
// formatted by PostgreSQL so both file formats carry the same text.
const ROWS_SQL = `
SELECT l.id, l.email,
       l.first_name AS "firstName", l.last_name AS "lastName",
       nullif(concat_ws(' ', nullif(l.first_name, ''), nullif(l.last_name, '')), '') AS "name",
       l.title, l.company, l.company_domain AS "companyDomain", l.industry, l.city, l.state, l.country,
       l.linkedin_url AS "linkedinUrl", l.phone,
       l.seniority_raw AS "seniority", l.department_raw AS "department", l.company_size_raw AS "companySize",
       l.source,
       to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
       l.verification,
       to_char(l.verified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "verifiedAt",
       ${['syntax', 'role', 'disposable', 'mailDomain'].map((c) => `(l.verification_checks->'${c}'->>'result') || ': ' || (l.verification_checks->'${c}'->>'detail') AS "verification${c[0]!.toUpperCase()}${c.slice(1)}"`).join(',\n       ')},
       l.custom_fields AS "customFields"
  FROM leads l
 WHERE l.account_id = $1 AND l.erased_at IS NULL
 ORDER BY l.created_at, l.email`;

export interface LeadExport {
  /** Every custom field name the account's leads have, in byte order: one column each. */
  readonly customFieldNames: readonly string[];
  /** An object stream of LeadExportRow; it holds a pooled connection until it closes. */
  readonly rows: Readable;
}

/** The account's leads for an export, and the custom field names they have (one query first). */
export async function openLeadExport(sequelize: Sequelize, accountId: string): Promise<LeadExport> {
  const { first, rows } = await openSnapshotRows<{ name: string }>(sequelize, { sql: NAMES_SQL, values: [accountId] }, { sql: ROWS_SQL, values: [accountId] });
  return { customFieldNames: first.map((r) => r.name), rows };
}
