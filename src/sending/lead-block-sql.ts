import { blockedSql } from '../blocklist/blocked-sql';

/**
 * Why a campaign email must not be reserved for this lead, beyond the suppression list (checked on
 * its own): a text SQL expression, NULL when nothing stands in the way. Put in the statements that
 * reserve an email (email-repository.ts), so what was committed before that statement runs (an
 * address or domain blocked a second before its send, a lead removed from the campaign, an address
 * found invalid) is never sent, whatever the batch read earlier.
 *
 * - blocklisted: an address entry, or a domain entry covering the address's domain;
 * - invalid address: the lead's last verification said invalid;
 * - removed from campaign / the enrolment's state: the lead's row in this campaign is no longer
 *   under way (campaigns without enrolment rows, from before the table, are not held back by it).
 *
 * The arguments are SQL expressions (columns or bind parameters). `verificationExpr` is the lead's
 * `verification` column when the statement has the lead's row at hand (no second lookup of it).
 */
export function leadBlockSql(accountExpr: string, emailExpr: string, campaignExpr: string, leadExpr: string, verificationExpr?: string): string {
  const invalid = verificationExpr === undefined ? `EXISTS (SELECT 1 FROM leads lv WHERE lv.id = ${leadExpr} AND lv.verification = 'invalid')` : `${verificationExpr} IS NOT DISTINCT FROM 'invalid'`;
  return `(CASE
    WHEN ${blockedSql(accountExpr, emailExpr)} THEN 'blocklisted'
    WHEN ${invalid} THEN 'invalid address'
    ELSE (SELECT CASE WHEN ce.state = 'removed' THEN 'removed from campaign' ELSE 'enrolment ' || ce.state END
          FROM campaign_enrolments ce WHERE ce.campaign_id = ${campaignExpr} AND ce.lead_id = ${leadExpr} AND ce.state NOT IN ('queued', 'in_sequence'))
  END)`;
}
