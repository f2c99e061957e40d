/**
 * Longest the API waits for Temporal to start a workflow or take a signal. These calls run inside
 * a database transaction (the row and the workflow change together), so a Temporal that does not
 * answer must not hold the row, or the client, for long: past this, the answer is a 503.
 */
export const TEMPORAL_CALL_MS = 5_000;
