import type { LeadField } from '../fields';

/** What a CSV column can feed: a lead field, or a composite split into fields. */
export type ColumnTarget = LeadField | 'fullName' | 'location';

// Header names are compared after lower-casing and dropping everything but letters and digits, so
// "E-mail", "Email Address", "first_name" and "First Name" all find their field.
const ALIASES: Record<ColumnTarget, readonly string[]> = {
  email: ['email', 'emailaddress', 'mail', 'workemail', 'businessemail'],
  firstName: ['firstname', 'first', 'givenname', 'forename'],
  lastName: ['lastname', 'last', 'surname', 'familyname'],
  fullName: ['name', 'fullname', 'contactname', 'personname'],
  title: ['title', 'jobtitle', 'position', 'role'],
  company: ['company', 'companyname', 'organization', 'organisation', 'organizationname', 'organisationname', 'employer', 'accountname'],
  companyDomain: ['companydomain', 'domain', 'website', 'companywebsite', 'websiteurl', 'companyurl', 'web'],
  industry: ['industry', 'companyindustry', 'sector'],
  city: ['city', 'town'],
  state: ['state', 'region', 'province', 'stateprovince', 'stateregion'],
  country: ['country', 'countryname'],
  location: ['location', 'personlocation', 'address'],
  linkedinUrl: ['linkedinurl', 'linkedin', 'linkedinprofile', 'linkedinprofileurl', 'personlinkedinurl'],
  phone: ['phone', 'phonenumber', 'mobile', 'mobilephone', 'telephone', 'tel', 'workphone', 'directphone'],
};

const BY_ALIAS = new Map<string, ColumnTarget>(Object.entries(ALIASES).flatMap(([target, names]) => names.map((n) => [n, target as ColumnTarget] as const)));

const normalise = (header: string): string => header.toLowerCase().replace(/[^a-z0-9]/g, '');

export interface ColumnMap {
  /** The column indexes feeding each target, in header order: the first non-empty value wins. */
  readonly columns: ReadonlyMap<ColumnTarget, readonly number[]>;
  /** The header's names, to say which column a bad value came from. */
  readonly names: readonly string[];
  /** Header names that feed nothing (reported so a typo in a header is noticed). */
  readonly ignored: readonly string[];
}

export class ImportHeaderError extends Error {
  override readonly name = 'ImportHeaderError';
}

/** Reads the header row. An unusable header (no email column) stops the import before any row. */
export function mapHeader(header: readonly string[]): ColumnMap {
  const columns = new Map<ColumnTarget, number[]>();
  const ignored: string[] = [];
  header.forEach((name, i) => {
    const target = BY_ALIAS.get(normalise(name));
    if (target === undefined) {
      if (name.trim() !== '') ignored.push(name.trim());
      return;
    }
    columns.set(target, [...(columns.get(target) ?? []), i]);
  });
  if (!columns.has('email')) {
    throw new ImportHeaderError(`The CSV header has no email column (first line: ${JSON.stringify(header.join(',').slice(0, 120))}); name one column "email"`);
  }
  return { columns, names: header.map((h) => h.trim()), ignored };
}
