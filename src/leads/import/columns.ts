import { customColumnsOf, type CustomColumn } from '../custom-fields';
import type { LeadField } from '../fields';

/**
 * What a CSV column can feed: a lead field, a composite split into fields, or the company's place
 * (which stands in for the person's when the row has no place of the person at all).
 */
export type ColumnTarget = LeadField | 'fullName' | 'location' | 'companyCity' | 'companyState' | 'companyCountry' | 'companyLocation';

// Header names are compared after lower-casing and dropping everything but letters and digits, so
// "E-mail", "Email Address", "first_name", "First Name" and "# Employees" all find their field.
// Besides the obvious names, those of the common exports: Apollo ("Title", "Company Name for
// Emails", "# Employees", "Seniority", "Departments", "Company Country"), Sales Navigator exports
// ("Job Title", "Person Location", "Company Location", "Company Headcount") and HubSpot ("Job
// Title", "Company Name", "Country/Region", "State/Region", "Number of Employees").
const ALIASES: Record<ColumnTarget, readonly string[]> = {
  email: ['email', 'emailaddress', 'mail', 'workemail', 'businessemail'],
  firstName: ['firstname', 'first', 'givenname', 'forename'],
  lastName: ['lastname', 'last', 'surname', 'familyname'],
  fullName: ['name', 'fullname', 'contactname', 'personname'],
  title: ['title', 'jobtitle', 'position', 'role', 'persontitle', 'currenttitle', 'currentjobtitle', 'jobposition'],
  company: [
    'company',
    'companyname',
    'organization',
    'organisation',
    'organizationname',
    'organisationname',
    'employer',
    'accountname',
    'companynameforemails',
    'currentcompany',
    'currentcompanyname',
  ],
  companyDomain: ['companydomain', 'domain', 'website', 'companywebsite', 'websiteurl', 'companyurl', 'web', 'companydomainname', 'companywebsiteurl'],
  industry: ['industry', 'companyindustry', 'sector', 'organizationindustry'],
  city: ['city', 'town', 'personcity'],
  state: ['state', 'region', 'province', 'stateprovince', 'stateregion', 'personstate'],
  country: ['country', 'countryname', 'personcountry', 'countryregion'],
  location: ['location', 'personlocation', 'address', 'geography'],
  linkedinUrl: ['linkedinurl', 'linkedin', 'linkedinprofile', 'linkedinprofileurl', 'personlinkedinurl'],
  phone: ['phone', 'phonenumber', 'mobile', 'mobilephone', 'telephone', 'tel', 'workphone', 'directphone'],
  seniority: ['seniority', 'senioritylevel', 'personseniority', 'managementlevel'],
  department: ['department', 'departments', 'persondepartment', 'jobfunction', 'function'],
  companySize: [
    'employees',
    'numberofemployees',
    'employeecount',
    'companysize',
    'companyheadcount',
    'headcount',
    'companyemployees',
    'companyemployeecount',
    'numemployees',
    'estimatednumemployees',
    'organizationsize',
  ],
  companyCity: ['companycity', 'organizationcity'],
  companyState: ['companystate', 'organizationstate', 'companystateregion'],
  companyCountry: ['companycountry', 'organizationcountry', 'companycountryregion'],
  companyLocation: ['companylocation', 'organizationlocation', 'companyheadquarters', 'headquarters'],
};

const BY_ALIAS = new Map<string, ColumnTarget>(Object.entries(ALIASES).flatMap(([target, names]) => names.map((n) => [n, target as ColumnTarget] as const)));

const normalise = (header: string): string => header.toLowerCase().replace(/[^a-z0-9]/g, '');

export interface ColumnMap {
  /** The column indexes feeding each target, in header order: the first non-empty value wins. */
  readonly columns: ReadonlyMap<ColumnTarget, readonly number[]>;
  /** The header's names, to say which column a bad value came from. */
  readonly names: readonly string[];
  /** Header names that feed a field, in header order (reported with the import's result). */
  readonly used: readonly string[];
  /** The other columns, kept with each lead as custom fields (see custom-fields.ts), in header order. */
  readonly custom: readonly CustomColumn[];
  /**
   * Header names that feed nothing: a header with no ASCII letter or digit left once accents are
   * folded, or a custom column past the limit (reported so a typo or a lost column is noticed).
   */
  readonly ignored: readonly string[];
}

export class ImportHeaderError extends Error {
  override readonly name = 'ImportHeaderError';
}

/**
 * Most columns a CSV may have. The exports this reads have tens (Apollo about 70), a CRM export of
 * every property a few hundred; a header past this is not a lead list (or not comma-separated).
 */
export const MAX_COLUMNS = 1000;

export function tooManyColumns(count: number): ImportHeaderError {
  return new ImportHeaderError(`The CSV header has ${count} columns; at most ${MAX_COLUMNS} are allowed`);
}

/**
 * Reads the header row: known names feed lead fields, every other column becomes a custom field.
 * An unusable header (no email column) stops the import before any row.
 */
export function mapHeader(header: readonly string[]): ColumnMap {
  if (header.length > MAX_COLUMNS) throw tooManyColumns(header.length);
  const columns = new Map<ColumnTarget, number[]>();
  const used: string[] = [];
  const others: Array<{ index: number; header: string }> = [];
  header.forEach((name, i) => {
    const target = BY_ALIAS.get(normalise(name));
    if (target === undefined) {
      others.push({ index: i, header: name });
      return;
    }
    used.push(name.trim());
    columns.set(target, [...(columns.get(target) ?? []), i]);
  });
  const custom = customColumnsOf(others);
  if (!columns.has('email')) {
    throw new ImportHeaderError(`The CSV header has no email column (first line: ${JSON.stringify(header.join(',').slice(0, 120))}); name one column "email"`);
  }
  return { columns, names: header.map((h) => h.trim()), used, custom: custom.columns, ignored: [...custom.ignored] };
}
