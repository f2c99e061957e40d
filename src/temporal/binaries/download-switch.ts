/**
 * `OUTREACH_TEMPORAL_NO_DOWNLOAD=1` skips temporal.download and goes straight to building from registries.
 * Useful where the service is reachable but forbidden by policy, and to exercise the build path on purpose.
 */
export function downloadsDisabled(): string | undefined {
  const value = process.env['OUTREACH_TEMPORAL_NO_DOWNLOAD'];
  return value && value !== '0' && value.toLowerCase() !== 'false'
    ? 'skipped (OUTREACH_TEMPORAL_NO_DOWNLOAD is set)'
    : undefined;
}
