import type { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { CAMPAIGN_SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';

const GRPC_UNIMPLEMENTED = 12;
const INDEXED_TYPE = { KEYWORD: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD } as const;

/**
 * Registers the campaign search attributes on a namespace that lacks them (an external cluster, the
 * time-skipping test server). Attributes that exist already are left alone. The embedded dev server
 * gets them from its command line instead.
 */
export async function registerSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const known = new Set<string>();
  try {
    const existing = await connection.operatorService.listSearchAttributes({ namespace });
    for (const name of Object.keys(existing.customAttributes ?? {})) known.add(name);
  } catch (err) {
    // The Java time-skipping server implements adding attributes but not listing them.
    if ((err as { code?: number }).code !== GRPC_UNIMPLEMENTED) throw err;
  }
  const missing = CAMPAIGN_SEARCH_ATTRIBUTES.filter((a) => !known.has(a.name));
  if (missing.length === 0) return [];
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((a) => [a.name, INDEXED_TYPE[a.type]])),
  });
  return missing.map((a) => a.name);
}
