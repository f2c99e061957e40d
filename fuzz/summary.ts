/** The figures of one schemathesis run, from the summary it prints last. */
export interface FuzzSummary {
  /** Test cases generated, i.e. requests sent with generated input (schemathesis' own count). */
  readonly requests: number;
  /** Unique failures found (failed checks and errors). */
  readonly failures: number;
}

/**
 * Reads schemathesis 4's closing summary:
 *
 *     Test cases:
 *       2170 generated, 9 found 9 unique failures
 *     ...
 *     ======= 9 failures, 3 warnings in 96.41s =======
 *
 * The last line also counts errors (a crashed operation, an unreachable server) that are not test
 * cases; both figures are taken and the larger is the number of failures. Undefined when the
 * output has no summary (the fuzzer crashed or was stopped).
 */
export function parseSummary(output: string): FuzzSummary | undefined {
  const cases = /Test cases:\s*\n\s*(\d+) generated(?:, (\d+) found (\d+) unique failures?)?(?:, (\d+) skipped)?/.exec(output);
  if (cases === null) return undefined;
  const requests = Number(cases[1]);
  const unique = cases[3] === undefined ? 0 : Number(cases[3]);
  const closing = /=+ (?:(\d+) failures?)?(?:,? ?(\d+) errors?)?[^=\n]* in [\d.]+s =+/.exec(output);
  const closingFailures = closing === null ? 0 : Number(closing[1] ?? 0) + Number(closing[2] ?? 0);
  return { requests, failures: Math.max(unique, closingFailures) };
}
