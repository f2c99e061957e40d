/**
 * Custom field filters written the way templates name the fields: `"custom.plan": ["pro"]` beside
 * the other filters (and in `exclude`), the same as `"custom": {"plan": ["pro"]}`. Both forms are
 * accepted; the stored and shown form is `custom`, so a campaign reads the same however it was made.
 */
import { CUSTOM_FIELD_NAME_PATTERN } from '../../leads/custom-fields';
import type { AudienceFilters } from './types';

/** A filter member naming one custom field: `custom.<name>`. */
export const DOTTED_CUSTOM_PATTERN = `^custom\\.${CUSTOM_FIELD_NAME_PATTERN.slice(1)}`;
const DOTTED = new RegExp(DOTTED_CUSTOM_PATTERN);

function fold(level: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const custom: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(level)) {
    if (DOTTED.test(key)) {
      const name = key.slice('custom.'.length);
      custom[name] = [...(custom[name] ?? []), ...(value as string[])];
    } else if (key === 'custom') {
      for (const [name, values] of Object.entries(value as Record<string, string[]>)) custom[name] = [...(custom[name] ?? []), ...values];
    } else out[key] = value;
  }
  if (Object.keys(custom).length > 0) out.custom = custom;
  return out;
}

/** The filters with every `custom.<name>` member (at the top and in `exclude`) moved into `custom`. */
export function foldDottedCustom(filters: AudienceFilters): AudienceFilters {
  const top = fold(filters as Record<string, unknown>);
  if (filters.exclude !== undefined) top.exclude = fold(filters.exclude as Record<string, unknown>);
  return top as AudienceFilters;
}
