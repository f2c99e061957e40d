import type { Readable } from 'node:stream';
import type { Verdict } from '../verification/types';
import { countVerdicts, verifyLeads, type VerificationDeps } from '../verification/verify-leads';
import { importLeadsCsv, type ImportOptions, type ListImportResult } from './import-csv';

export interface VerifiedImportResult extends ListImportResult {
  /** The new leads by verdict (duplicates keep their stored verification). */
  readonly verification: Readonly<Record<Verdict, number>>;
}

/**
 * An import (import-csv.ts), then the verification of the leads it added, once they are committed:
 * DNS may take seconds and must not hold the import's transaction. Each distinct domain of the file
 * is looked up once (a few dozen at a time); the verdicts are written in one statement per 5,000
 * leads. Duplicates keep what they had: an import never rewrites a stored lead.
 */
export async function importAndVerify(deps: VerificationDeps, accountId: string, source: Readable, opts: ImportOptions = {}): Promise<VerifiedImportResult> {
  const newIds: string[] = [];
  const result = await importLeadsCsv(deps.sequelize, accountId, source, {
    ...opts,
    onInserted: (ids) => {
      newIds.push(...ids);
      opts.onInserted?.(ids);
    },
  });
  const verified = await verifyLeads(deps, accountId, newIds);
  return { ...result, verification: countVerdicts(verified.values()) };
}
