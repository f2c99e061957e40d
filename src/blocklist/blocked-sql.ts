/**
 * A boolean SQL expression: whether the address `emailExpr` is blocked for the account
 * `accountExpr` (both SQL expressions: columns, bind parameters). True for an address entry equal
 * to it and for a domain entry equal to its domain or any parent of it (a domain covers its
 * subdomains), read through the unique index (account_id, kind, value) with one probe per suffix.
 *
 * Planning puts it in the query that picks the day's leads and sending in the statement that
 * reserves an email, so an entry committed before that statement runs is never sent to. The
 * suppression list is checked on its own, as before.
 */
export function blockedSql(accountExpr: string, emailExpr: string): string {
  // Two probes rather than one EXISTS with `value = ANY(suffixes)`: over a small blocklist the
  // planner scans the entries and would compute the suffixes once per entry; here they are
  // computed once and each looked up in the unique index.
  return (
    `(EXISTS (SELECT 1 FROM blocklist_entries blk WHERE blk.account_id = ${accountExpr} AND blk.kind = 'address' AND blk.value = lower(${emailExpr})) OR ` +
    `EXISTS (SELECT 1 FROM unnest(email_domain_suffixes(${emailExpr})) AS sfx(value) ` +
    `JOIN blocklist_entries blk ON blk.account_id = ${accountExpr} AND blk.kind = 'domain' AND blk.value = sfx.value))`
  );
}
