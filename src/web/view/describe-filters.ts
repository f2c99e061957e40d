import type { AudienceFilters, CompanySizeRange, CustomFieldFilter } from '../../campaigns/audience/types';
import { levelRangeText } from '../../campaigns/audience/audience-of-campaign';

/** An audience's filters as label and words, one line per filter, for the campaign page. */
export type FilterLine = readonly [label: string, value: string];

const list = (xs: readonly string[] | undefined): string | null => (xs === undefined || xs.length === 0 ? null : xs.join(', '));

function sizes(ranges: readonly CompanySizeRange[] | undefined): string | null {
  if (ranges === undefined || ranges.length === 0) return null;
  return ranges.map((r) => (r.min === undefined ? `up to ${r.max}` : r.max === undefined ? `${r.min} or more` : `${r.min}–${r.max}`)).join(', ') + ' employees';
}

function custom(c: CustomFieldFilter | undefined): string | null {
  if (c === undefined) return null;
  const parts = Object.entries(c).map(([field, values]) => `${field}: ${values.join(', ')}`);
  return parts.length === 0 ? null : parts.join('; ');
}

export function describeFilters(f: AudienceFilters | null): FilterLine[] {
  if (f === null) return [];
  const levels = f.seniorityMin !== undefined || f.seniorityMax !== undefined ? levelRangeText(f.seniorityMin, f.seniorityMax) : null;
  const lines: [string, string | null][] = [
    ['Titles', list(f.titles)],
    ['Seniority', [list(f.seniorities), levels].filter((x) => x !== null).join('; ') || null],
    ['Departments', list(f.departments)],
    ['Locations', list(f.locations)],
    ['Industries', list(f.industries)],
    ['Company size', sizes(f.companySizes)],
    ['Keywords', list(f.keywords)],
    ['Custom fields', custom(f.custom)],
    ['Not titles', list(f.exclude?.titles)],
    ['Not industries', list(f.exclude?.industries)],
    ['Not companies', list(f.exclude?.companies)],
    ['Not domains', list(f.exclude?.domains)],
    ['Not addresses', list(f.exclude?.emails)],
    ['Not custom fields', custom(f.exclude?.custom)],
  ];
  return lines.filter((l): l is [string, string] => l[1] !== null);
}
