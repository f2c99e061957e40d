/**
 * A lead changed from outside (PATCH /v1/leads/:id): its status, its fields and its custom fields,
 * checked as an import checks them, in one transaction with what the status sets off. Edited
 * profile fields recompute the lead's profile columns, so audiences match the lead as it now is.
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import { InvalidInputError, NotFoundError } from '../errors/domain-errors';
import { CUSTOM_FIELD_NAME, MAX_CUSTOM_FIELDS_PER_IMPORT, normalizeCustomFieldName } from './custom-fields';
import { FIELD_LIMITS, isValidPhone, normalizeDomain, normalizeLinkedinUrl } from './fields';
import { applyUserStatus, type UserStatus } from './lead-status';
import { LEAD_COLUMNS, toLeadView, type LeadRow, type LeadView } from './lead-view';
import { RAW_PROFILE_COLUMNS, profileSourceOfRow, profileValues, type RawProfileRow } from './profile-columns';
import { writeProfiles } from './profile-refresh';

/** The fields an edit may set, by API name, with their column. The address is not one: it is the lead's identity. */
export const EDITABLE_FIELDS = {
  firstName: 'first_name',
  lastName: 'last_name',
  title: 'title',
  company: 'company',
  companyDomain: 'company_domain',
  industry: 'industry',
  city: 'city',
  state: 'state',
  country: 'country',
  linkedinUrl: 'linkedin_url',
  phone: 'phone',
  seniority: 'seniority_raw',
  department: 'department_raw',
  companySize: 'company_size_raw',
} as const;

export type EditableField = keyof typeof EDITABLE_FIELDS;

/** Longest custom field value an edit may set (an import's are bounded by its 64 KB rows). */
export const MAX_CUSTOM_FIELD_VALUE_LENGTH = 2000;

export interface LeadEdit {
  /** undefined: unchanged; null: cleared. */
  readonly status?: UserStatus | null;
  /** Each field given is set; null or blank clears it. */
  readonly fields?: Partial<Record<EditableField, string | null>>;
  /** Merged into the lead's custom fields; null or blank removes one. */
  readonly customFields?: Readonly<Record<string, string | null>>;
}

/** A lead as GET shows it, with its status (part of every lead view). */
export type LeadWithStatus = LeadView;

const invalid = (message: string): InvalidInputError => new InvalidInputError(message);

/** A field's value as stored, or why it is refused (the `where` names it, e.g. `body.companyDomain`). */
function fieldValue(field: EditableField, raw: string | null, where: string): string | null {
  const v = raw?.trim() ?? '';
  if (v === '') return null;
  switch (field) {
    case 'companyDomain': {
      const domain = normalizeDomain(v);
      if (domain === null) throw invalid(`${where} is not a domain or website address`);
      return domain;
    }
    case 'linkedinUrl': {
      const url = normalizeLinkedinUrl(v);
      if (url === null) throw invalid(`${where} is not a LinkedIn profile URL (https://www.linkedin.com/in/...)`);
      return url;
    }
    case 'phone':
      if (!isValidPhone(v)) throw invalid(`${where} is not a phone number`);
      return v;
    default:
      if (v.length > FIELD_LIMITS[field]) throw invalid(`${where} is longer than ${FIELD_LIMITS[field]} characters`);
      return v;
  }
}

/**
 * The custom fields as a JSON patch (null removes a key), names checked: a name must already be in
 * the form imports give (`favourite_colour`), so the field is the one filters and templates name.
 */
function customPatch(custom: Readonly<Record<string, string | null>>, where: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [name, raw] of Object.entries(custom)) {
    if (!CUSTOM_FIELD_NAME.test(name)) {
      const suggestion = normalizeCustomFieldName(name);
      throw invalid(
        `${where} has an invalid field name ${JSON.stringify(name.length > 60 ? `${name.slice(0, 57)}...` : name)}: names are lower-case a-z, 0-9 and _, ` +
          `start with a letter and have at most 40 characters${suggestion !== null && suggestion !== name ? ` (as imported: "${suggestion}")` : ''}`,
      );
    }
    const v = raw?.trim() ?? '';
    if (v.length > MAX_CUSTOM_FIELD_VALUE_LENGTH) throw invalid(`${where}.${name} is longer than ${MAX_CUSTOM_FIELD_VALUE_LENGTH} characters`);
    out[name] = v === '' ? null : v;
  }
  return out;
}

const PROFILE_FIELDS: ReadonlySet<EditableField> = new Set(['title', 'company', 'industry', 'city', 'state', 'country', 'seniority', 'department', 'companySize']);

/**
 * Applies the edit to the account's lead and returns it as it now is. Throws NotFoundError for a
 * lead that is not the account's (or was erased) and InvalidInputError, naming the member under
 * `where` (e.g. `body`), for a value an import would refuse. Nothing is written unless all of it is.
 */
export async function editLead(sequelize: Sequelize, accountId: string, leadId: string, edit: LeadEdit, where = 'body'): Promise<LeadWithStatus> {
  // Checked before the transaction: a refused edit takes no lock.
  const sets: string[] = [];
  const bind: unknown[] = [accountId, leadId];
  for (const [field, raw] of Object.entries(edit.fields ?? {}) as Array<[EditableField, string | null | undefined]>) {
    if (raw === undefined) continue;
    bind.push(fieldValue(field, raw, `${where}.${field}`));
    sets.push(`${EDITABLE_FIELDS[field]} = $${bind.length}`);
  }
  if (edit.customFields !== undefined && Object.keys(edit.customFields).length > 0) {
    bind.push(JSON.stringify(customPatch(edit.customFields, `${where}.customFields`)));
    // Stored values are never null, so stripping nulls removes exactly the keys the patch clears.
    sets.push(`custom_fields = NULLIF(jsonb_strip_nulls(COALESCE(custom_fields, '{}'::jsonb) || $${bind.length}::jsonb), '{}'::jsonb)`);
  }
  const profileChanged = Object.keys(edit.fields ?? {}).some((f) => PROFILE_FIELDS.has(f as EditableField));

  return sequelize.transaction(async (tx) => {
    const locked = await sequelize.query<{ id: string; email: string }>(
      'SELECT id, email FROM leads WHERE account_id = $1 AND id = $2 AND erased_at IS NULL FOR UPDATE',
      { bind: [accountId, leadId], type: QueryTypes.SELECT, transaction: tx },
    );
    const lead = locked[0];
    if (lead === undefined) throw new NotFoundError('lead');
    if (sets.length > 0) {
      const rows = await sequelize.query<{ n: string }>(
        `UPDATE leads SET ${sets.join(', ')}, updated_at = now() WHERE account_id = $1 AND id = $2
         RETURNING (SELECT count(*) FROM jsonb_object_keys(COALESCE(custom_fields, '{}'::jsonb))) AS n`,
        { bind, type: QueryTypes.SELECT, transaction: tx },
      );
      const count = Number(rows[0]?.n ?? 0);
      if (count > MAX_CUSTOM_FIELDS_PER_IMPORT) {
        throw invalid(`${where}.customFields would give the lead ${count} custom fields; a lead has at most ${MAX_CUSTOM_FIELDS_PER_IMPORT}`);
      }
    }
    if (profileChanged) {
      const raw = await sequelize.query<RawProfileRow>(`SELECT ${RAW_PROFILE_COLUMNS} FROM leads l WHERE l.id = $1`, { bind: [leadId], type: QueryTypes.SELECT, transaction: tx });
      if (raw[0] !== undefined) await writeProfiles(sequelize, tx, [{ id: leadId, values: profileValues(profileSourceOfRow(raw[0])) }]);
    }
    if (edit.status !== undefined) await applyUserStatus(sequelize, tx, accountId, lead, edit.status);
    const after = await sequelize.query<LeadRow>(`SELECT ${LEAD_COLUMNS} FROM leads l WHERE l.id = $1`, {
      bind: [leadId],
      type: QueryTypes.SELECT,
      transaction: tx,
    });
    return toLeadView(after[0]!);
  });
}
