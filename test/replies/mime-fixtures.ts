import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface MimeVars {
  /** Bare Message-ID of the sent email the message refers to. */
  readonly SENT_ID: string;
  /** The lead's address. */
  readonly LEAD: string;
  /** Makes the fixture's own Message-ID unique; random unless given. */
  readonly TAG?: string;
}

/** A raw message from test/fixtures/mime with its placeholders filled, with CRLF line ends as on the wire. */
export function loadMime(name: string, vars: MimeVars): Buffer {
  const text = readFileSync(path.join(__dirname, '..', 'fixtures', 'mime', name), 'utf8');
  const values: Record<string, string> = { TAG: randomBytes(6).toString('hex'), ...vars };
  const filled = text.replace(/\{\{([A-Z_]+)\}\}/g, (_m, key: string) => {
    const v = values[key];
    if (v === undefined) throw new Error(`fixture ${name} needs ${key}`);
    return v;
  });
  return Buffer.from(filled.replace(/\r?\n/g, '\r\n'), 'utf8');
}
