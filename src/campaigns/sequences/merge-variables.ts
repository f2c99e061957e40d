/**
 * The merge variables of written steps: what `{{ ... }}` may name, and the values one lead, its
 * sender and its campaign give them. A template naming anything else is refused when the campaign
 * is created (validate-sequence.ts); a lead without a value for a variable the template needs
 * (no `default`, not inside a condition on it) skips that step (render-variant.ts).
 *
 * Values are text as stored, trimmed; an empty value counts as no value. The one exception is
 * `first_name`, which is put in title case when it was typed all in capitals or all in lower
 * case (exports often have "JOHN" or "john"; "McKenzie" and "de Wit" stay as typed).
 */
import { CUSTOM_FIELD_NAME } from '../../leads/custom-fields';
import type { LeadInput } from '../../leads/fields';
import { SPIN_VARIABLE } from './spintax';

/** Lead fields, by the name a template uses. */
export const LEAD_VARIABLES = [
  'first_name',
  'last_name',
  'name',
  'email',
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

/** `sender.<name>`: who writes (the mailbox, or the account's default sender) and for which company. */
export const SENDER_VARIABLES = ['name', 'first_name', 'email', 'company'] as const;

/** Top-level variables besides the lead's fields. */
export const CAMPAIGN_VARIABLES = ['calendar_link'] as const;

/** Everything a template may name, as the message of an unknown variable lists it. */
export const VARIABLES_HELP = [...LEAD_VARIABLES, ...CAMPAIGN_VARIABLES, 'custom.<field>', ...SENDER_VARIABLES.map((v) => `sender.${v}`)].join(', ');

/** A lead as merge variables read it: its stored fields and its custom fields. */
export type MergeLead = Omit<LeadInput, 'seniority' | 'department' | 'companySize' | 'customFields'> & {
  readonly customFields: Readonly<Record<string, string>> | null;
};

export interface MergeSender {
  /** The From name: a person or the company, never empty. */
  readonly name: string;
  readonly email: string;
  /** The company the campaign speaks for. */
  readonly company: string | null;
}

const LEAD_SET = new Set<string>(LEAD_VARIABLES);
const SENDER_SET = new Set<string>(SENDER_VARIABLES);
const CAMPAIGN_SET = new Set<string>(CAMPAIGN_VARIABLES);

/**
 * Why a variable a template reads (as its segments: `custom.plan` is ['custom', 'plan']) is not
 * one it may use, or null when it is.
 */
export function variableProblem(segments: readonly unknown[]): string | null {
  if (segments.some((s) => typeof s !== 'string' && typeof s !== 'number')) return `"${segments.filter((s) => typeof s === 'string').join('.')}[...]": a field named by another variable cannot be checked; name it`;
  const [root, second, ...rest] = segments.map(String);
  const shown = segments.join('.');
  if (root === undefined) return 'an empty variable';
  if (root === SPIN_VARIABLE) return `"${shown}" is reserved`;
  if (root === 'custom') {
    if (second === undefined) return '"custom" needs a field name: custom.<field>';
    if (!CUSTOM_FIELD_NAME.test(second)) return `"custom.${second}" is not a custom field name (lower-case letters, digits and _, starting with a letter)`;
    return rest.length === 0 ? null : `unknown variable "${shown}"`;
  }
  if (root === 'sender') {
    if (second === undefined || !SENDER_SET.has(second) || rest.length > 0) return `unknown variable "${shown}" (the sender has ${SENDER_VARIABLES.map((v) => `sender.${v}`).join(', ')})`;
    return null;
  }
  if ((LEAD_SET.has(root) || CAMPAIGN_SET.has(root)) && second === undefined) return null;
  return `unknown variable "${shown}" (available: ${VARIABLES_HELP})`;
}

/** A value worth writing: trimmed, or undefined when there is nothing. */
function present(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  return v === '' ? undefined : v;
}

function titleCaseIfShouting(name: string | undefined): string | undefined {
  if (name === undefined || !/\p{L}/u.test(name)) return name;
  if (name !== name.toLowerCase() && !(name === name.toUpperCase() && name.length > 1)) return name;
  return name
    .toLowerCase()
    .split(/([\s-])/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The render scope for one lead: only the values it has (a missing one is undefined for Liquid). */
export function mergeScope(lead: MergeLead, sender: MergeSender, calendarLink: string | null): Record<string, unknown> {
  const scope: Record<string, unknown> = {};
  const put = (name: string, value: string | null | undefined): void => {
    const v = present(value);
    if (v !== undefined) scope[name] = v;
  };
  const first = titleCaseIfShouting(present(lead.firstName));
  put('first_name', first);
  put('last_name', lead.lastName);
  put('name', [first, present(lead.lastName)].filter((p) => p !== undefined).join(' '));
  put('email', lead.email);
  put('title', lead.title);
  put('company', lead.company);
  put('company_domain', lead.companyDomain);
  put('industry', lead.industry);
  put('city', lead.city);
  put('state', lead.state);
  put('country', lead.country);
  put('linkedin_url', lead.linkedinUrl);
  put('phone', lead.phone);
  put('calendar_link', calendarLink);
  const custom: Record<string, string> = {};
  for (const [k, v] of Object.entries(lead.customFields ?? {})) {
    const value = present(v);
    if (value !== undefined) custom[k] = value;
  }
  scope.custom = custom;
  const senderScope: Record<string, string> = {};
  const senderName = present(sender.name);
  if (senderName !== undefined) {
    senderScope.name = senderName;
    senderScope.first_name = senderName.split(/\s+/)[0]!;
  }
  senderScope.email = sender.email;
  const company = present(sender.company);
  if (company !== undefined) senderScope.company = company;
  scope.sender = senderScope;
  return scope;
}
