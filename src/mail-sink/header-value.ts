/**
 * The raw value of one header of a message (unfolded, not decoded), or null. Enough for a log line:
 * the sink does not parse messages, it keeps them as they came.
 */
export function headerValue(raw: Buffer, name: string): string | null {
  let end = raw.indexOf('\r\n\r\n');
  if (end < 0) end = raw.indexOf('\n\n');
  const head = raw.subarray(0, end < 0 ? Math.min(raw.length, 64 * 1024) : end).toString('latin1');
  const wanted = name.toLowerCase();
  let current: string | null = null;
  for (const line of head.split(/\r?\n/)) {
    if (current !== null) {
      if (line.startsWith(' ') || line.startsWith('\t')) {
        current += line;
        continue;
      }
      return current.trim();
    }
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === wanted) current = line.slice(colon + 1);
  }
  return current?.trim() ?? null;
}
