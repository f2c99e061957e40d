/**
 * AudienceFilters as JSON Schema, in the stored camelCase form, for checking filters that did not
 * come through the API's body validation (a model's reading of the audience text). It states the
 * same rules as the bounded `audience` of a create body: every value non-blank text of at most
 * AUDIENCE_FILTER_BOUNDS.maxLength characters, at most AUDIENCE_FILTER_BOUNDS.maxItems values per
 * list, seniorities from SENIORITIES, custom field filters as customFilterSchema says, no unknown
 * member.
 *
 * LLM_AUDIENCE_SCHEMA is the shape asked of a model: written for OpenAI's strict structured
 * outputs (every member required, lists possibly empty, open size ends as null, no length
 * keywords); `filtersOfLlmAnswer` turns its answer into AudienceFilters, which are then checked
 * against AUDIENCE_FILTERS_SCHEMA. A model is not asked for custom field filters: the account's
 * field names are not in its prompt, and a name it guessed would narrow the audience to nobody.
 */
import { Type, type Static } from '@sinclair/typebox';
import Ajv from 'ajv';
import { CUSTOM_FIELD_NAME_PATTERN } from '../../leads/custom-fields';
import { DOTTED_CUSTOM_PATTERN } from './dotted-custom';
import { DEPARTMENT_IDS } from '../../leads/profile/departments';
import { SENIORITIES } from '../../leads/profile/types';
import type { AudienceExclusions, AudienceFilters, CompanySizeRange, Seniority } from './types';

/** Values per list, characters per value, employees. */
export const AUDIENCE_FILTER_BOUNDS = { maxItems: 50, maxLength: 200, maxEmployees: 10_000_000 } as const;

/**
 * Field names in one `custom` filter (and in `exclude.custom`): an audience names a few of a
 * lead's fields, and each name is one more condition in the matcher's statement.
 */
export const MAX_CUSTOM_FILTER_NAMES = 20;

const Value = Type.String({ minLength: 1, maxLength: AUDIENCE_FILTER_BOUNDS.maxLength, pattern: '\\S' });

/**
 * A `custom` filter: custom field name (the import's normalised names, CUSTOM_FIELD_NAME_PATTERN)
 * to its values. Bounded (a request, and the model's answer): at most MAX_CUSTOM_FILTER_NAMES names,
 * each with 1 to AUDIENCE_FILTER_BOUNDS.maxItems values that are non-blank text of at most
 * AUDIENCE_FILTER_BOUNDS.maxLength characters; a name off the pattern is an unknown field.
 * Unbounded (a response): the same shape, as stored. Used by the API's schemas too, so both
 * surfaces and the domain state the rule once.
 */
export function customFilterSchema(bounded: boolean, description?: string) {
  const value = bounded ? Value : Type.String();
  const values = Type.Array(value, bounded ? { minItems: 1, maxItems: AUDIENCE_FILTER_BOUNDS.maxItems } : {});
  return Type.Record(Type.String({ pattern: CUSTOM_FIELD_NAME_PATTERN }), values, {
    additionalProperties: false,
    ...(bounded ? { maxProperties: MAX_CUSTOM_FILTER_NAMES } : {}),
    ...(description === undefined ? {} : { description }),
  });
}
/**
 * `custom.<name>` members beside the others (dotted-custom.ts), each a list of values like one of
 * `custom`'s; at most MAX_CUSTOM_FILTER_NAMES of them, counted with the object's own members.
 */
export function dottedCustomMembers(bounded: boolean, ownMembers = 12) {
  const values = Type.Array(bounded ? Value : Type.String(), bounded ? { minItems: 1, maxItems: AUDIENCE_FILTER_BOUNDS.maxItems } : {});
  return { patternProperties: { [DOTTED_CUSTOM_PATTERN]: values }, ...(bounded ? { maxProperties: ownMembers + MAX_CUSTOM_FILTER_NAMES } : {}) };
}

const List = <T extends ReturnType<typeof Type.String>>(item: T) => Type.Optional(Type.Array(item, { maxItems: AUDIENCE_FILTER_BOUNDS.maxItems }));
const Employees = Type.Optional(Type.Integer({ minimum: 0, maximum: AUDIENCE_FILTER_BOUNDS.maxEmployees }));
const SeniorityValue = Type.Unsafe<Seniority>({ type: 'string', enum: [...SENIORITIES] });

export const AUDIENCE_FILTERS_SCHEMA = Type.Object(
  {
    titles: List(Value),
    seniorities: Type.Optional(Type.Array(SeniorityValue, { maxItems: AUDIENCE_FILTER_BOUNDS.maxItems })),
    seniorityMin: Type.Optional(SeniorityValue),
    seniorityMax: Type.Optional(SeniorityValue),
    departments: List(Value),
    locations: List(Value),
    industries: List(Value),
    companySizes: Type.Optional(
      Type.Array(Type.Object({ min: Employees, max: Employees }, { additionalProperties: false, minProperties: 1 }), { maxItems: AUDIENCE_FILTER_BOUNDS.maxItems }),
    ),
    keywords: List(Value),
    custom: Type.Optional(customFilterSchema(true)),
    exclude: Type.Optional(
      Type.Object(
        { titles: List(Value), companies: List(Value), domains: List(Value), emails: List(Value), industries: List(Value), custom: Type.Optional(customFilterSchema(true)) },
        { additionalProperties: false, ...dottedCustomMembers(true) },
      ),
    ),
  },
  { additionalProperties: false, ...dottedCustomMembers(true) },
);

/** The schema's type; a value it accepts is AudienceFilters. */
export type SchemaFilters = Static<typeof AUDIENCE_FILTERS_SCHEMA>;
/** Typechecked: what the schema accepts is AudienceFilters, so the two cannot drift apart silently. */

const STRINGS = { type: 'array', items: { type: 'string' } } as const;
const NULLABLE_SENIORITY = { type: ['string', 'null'], enum: [...SENIORITIES, null] } as const;
const NULLABLE_EMPLOYEES = { type: ['integer', 'null'] } as const;

/** What a model answers: every member present, empty lists for what the text does not say. */
export interface LlmAudienceAnswer {
  readonly titles: string[];
  readonly seniorities: string[];
  readonly seniorityMin: string | null;
  readonly seniorityMax: string | null;
  readonly departments: string[];
  readonly locations: string[];
  readonly industries: string[];
  readonly companySizes: Array<{ min: number | null; max: number | null }>;
  readonly keywords: string[];
  readonly exclude: { titles: string[]; companies: string[]; domains: string[]; emails: string[]; industries: string[] };
}

/** The provider-facing schema (OpenAI strict structured outputs; Anthropic's forced tool input). */
export const LLM_AUDIENCE_SCHEMA: Readonly<Record<string, unknown>> = {
  type: 'object',
  properties: {
    titles: {
      ...STRINGS,
      description:
        'Exact job titles as written, e.g. "CTO", "VP of Engineering". Leave empty when the text names a function and a level rather than titles ("finance leaders": departments and seniorityMin instead).',
    },
    seniorities: { type: 'array', items: { type: 'string', enum: [...SENIORITIES] }, description: `Individual seniority levels, only from (highest first): ${SENIORITIES.join(', ')}.` },
    seniorityMin: {
      ...NULLABLE_SENIORITY,
      description:
        'The lowest level of a range, or null. "leaders"/"leadership": director; "senior leadership": head; "executives", "VP-level and above": vp; "C-suite": c_level; "managers and above": manager.',
    },
    seniorityMax: { ...NULLABLE_SENIORITY, description: 'The highest level of a range ("up to director"), or null.' },
    departments: { ...STRINGS, description: `Functions, from: ${DEPARTMENT_IDS.join(', ')} ("HR" is people, "customer service" is customer_success).` },
    locations: { ...STRINGS, description: 'Countries, regions (DACH, Nordics, EU, EMEA, West Coast), US states, Canadian provinces or cities, in English.' },
    industries: { ...STRINGS, description: 'Industries by name, e.g. "fintech", "SaaS", "logistics", "e-commerce", "healthcare".' },
    companySizes: {
      type: 'array',
      description: 'Company size ranges in employees; null for an open end.',
      items: { type: 'object', properties: { min: NULLABLE_EMPLOYEES, max: NULLABLE_EMPLOYEES }, required: ['min', 'max'], additionalProperties: false },
    },
    keywords: { ...STRINGS, description: "Other words the lead's title, company or industry must contain; usually empty." },
    exclude: {
      type: 'object',
      description: 'Leads never to email ("not agencies", "except Acme").',
      properties: { titles: STRINGS, companies: STRINGS, domains: STRINGS, emails: STRINGS, industries: STRINGS },
      required: ['titles', 'companies', 'domains', 'emails', 'industries'],
      additionalProperties: false,
    },
  },
  required: ['titles', 'seniorities', 'seniorityMin', 'seniorityMax', 'departments', 'locations', 'industries', 'companySizes', 'keywords', 'exclude'],
  additionalProperties: false,
};

const texts = (values: readonly string[]): string[] => [...new Set(values.map((v) => v.trim()).filter((v) => v !== ''))];

/**
 * AudienceFilters from a model's answer: values trimmed and de-duplicated, empty lists and open
 * size ends left out. The result may still break AUDIENCE_FILTERS_SCHEMA (too long, too many):
 * check it.
 */
export function filtersOfLlmAnswer(a: LlmAudienceAnswer): AudienceFilters {
  const out: Record<string, unknown> = {};
  const put = (key: string, values: readonly unknown[], into: Record<string, unknown> = out) => {
    if (values.length > 0) into[key] = values;
  };
  put('titles', texts(a.titles));
  put('seniorities', texts(a.seniorities));
  if (a.seniorityMin !== null && a.seniorityMin !== undefined) out.seniorityMin = a.seniorityMin;
  if (a.seniorityMax !== null && a.seniorityMax !== undefined) out.seniorityMax = a.seniorityMax;
  put('departments', texts(a.departments));
  put('locations', texts(a.locations));
  put('industries', texts(a.industries));
  put(
    'companySizes',
    a.companySizes
      .map((r): CompanySizeRange => ({ ...(r.min === null ? {} : { min: r.min }), ...(r.max === null ? {} : { max: r.max }) }))
      .filter((r) => r.min !== undefined || r.max !== undefined),
  );
  put('keywords', texts(a.keywords));
  const exclude: Record<string, unknown> = {};
  for (const key of ['titles', 'companies', 'domains', 'emails', 'industries'] as const) put(key, texts(a.exclude[key]), exclude);
  if (Object.keys(exclude).length > 0) out.exclude = exclude as AudienceExclusions;
  return out as AudienceFilters;
}

/** Whether filters name anyone: at least one member other than `exclude`. */
export function namesSomeone(f: AudienceFilters): boolean {
  return Object.keys(f).some((k) => k !== 'exclude');
}

const ajv = new Ajv({ allErrors: false });
const validate = ajv.compile<SchemaFilters>(AUDIENCE_FILTERS_SCHEMA);

/**
 * Why `value` is not AudienceFilters by AUDIENCE_FILTERS_SCHEMA (the first problem, its path named
 * from `name`), or null when it is. For filters that come from neither surface's body (a model's
 * reading, the CLI's `--filters`).
 */
export function filtersProblem(value: unknown, name = 'filters'): string | null {
  if (validate(value)) return rangeProblem(value, { companySizes: `${name}.companySizes`, seniorityMin: `${name}.seniorityMin`, seniorityMax: `${name}.seniorityMax` });
  const err = validate.errors?.[0];
  if (err === undefined) return `${name} is invalid`;
  const where = `${name}${err.instancePath.replace(/\//g, '.')}`;
  if (err.keyword === 'additionalProperties') return `${where} has unknown field ${JSON.stringify((err.params as { additionalProperty: string }).additionalProperty)}`;
  return `${where} ${err.message ?? 'is invalid'}`;
}

/**
 * What a schema cannot say about filters: a size range whose min exceeds its max, a seniority
 * range whose lowest level is above its highest. `names` spells the members as the caller knows
 * them (the surface's casing). Null when both are fine.
 */
export function rangeProblem(filters: AudienceFilters, names: { companySizes: string; seniorityMin: string; seniorityMax: string }): string | null {
  const sizes = filters.companySizes ?? [];
  for (let i = 0; i < sizes.length; i++) {
    const r = sizes[i]!;
    if (r.min !== undefined && r.max !== undefined && r.min > r.max) return `${names.companySizes}[${i}]: min must not exceed max`;
  }
  const { seniorityMin: lo, seniorityMax: hi } = filters;
  if (lo !== undefined && hi !== undefined && SENIORITIES.indexOf(lo) < SENIORITIES.indexOf(hi)) {
    return `${names.seniorityMin} (${lo}) must not be above ${names.seniorityMax} (${hi})`;
  }
  return null;
}
