import { createHash, createVerify, type KeyObject } from 'node:crypto';

/**
 * A DKIM verifier for relaxed/relaxed rsa-sha256 signatures (RFC 6376 §3.4.2, §3.4.4, §3.7), written
 * from the RFC so the test checks nodemailer's signature independently of nodemailer: the public key
 * comes from the test, as a receiver would get it from DNS.
 */
export interface DkimCheck {
  readonly tags: Record<string, string>;
  readonly bodyHashOk: boolean;
  readonly signatureOk: boolean;
  /** The signed header names (h=), lower-cased. */
  readonly signedHeaders: string[];
}

interface Field {
  readonly name: string;
  /** The whole field as received, folded lines included, without the final CRLF. */
  readonly raw: string;
}

function splitMessage(raw: Buffer): { fields: Field[]; body: string } {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  const head = end < 0 ? text : text.slice(0, end);
  const body = end < 0 ? '' : text.slice(end + 4);
  const fields: Field[] = [];
  for (const line of head.split('\r\n')) {
    if ((line.startsWith(' ') || line.startsWith('\t')) && fields.length > 0) {
      const last = fields.pop() as Field;
      fields.push({ name: last.name, raw: `${last.raw}\r\n${line}` });
    } else {
      fields.push({ name: line.slice(0, line.indexOf(':')).trim().toLowerCase(), raw: line });
    }
  }
  return { fields, body };
}

function relaxedHeader(raw: string): string {
  const colon = raw.indexOf(':');
  const name = raw.slice(0, colon).trim().toLowerCase();
  const value = raw
    .slice(colon + 1)
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
  return `${name}:${value}`;
}

function relaxedBody(body: string): string {
  const lines = body.split('\r\n').map((l) => l.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`;
}

function parseTags(value: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const part of value.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    tags[part.slice(0, eq).replace(/\s+/g, '')] = part.slice(eq + 1).replace(/\s+/g, '');
  }
  return tags;
}

export function verifyDkim(raw: Buffer, publicKey: KeyObject): DkimCheck {
  const { fields, body } = splitMessage(raw);
  const sigField = fields.find((f) => f.name === 'dkim-signature');
  if (sigField === undefined) throw new Error('no DKIM-Signature header');
  const tags = parseTags(sigField.raw.slice(sigField.raw.indexOf(':') + 1));
  if (tags.a !== 'rsa-sha256' || tags.c !== 'relaxed/relaxed') throw new Error(`unsupported a=${tags.a} c=${tags.c}`);
  const bodyHash = createHash('sha256').update(relaxedBody(body), 'latin1').digest('base64');
  const signedHeaders = (tags.h ?? '').split(':').map((h) => h.trim().toLowerCase());
  // Each name in h= takes the last not yet used instance of that header (bottom-up).
  const used = new Set<Field>();
  let data = '';
  for (const name of signedHeaders) {
    const field = [...fields].reverse().find((f) => f.name === name && !used.has(f) && f !== sigField);
    if (field === undefined) continue;
    used.add(field);
    data += `${relaxedHeader(field.raw)}\r\n`;
  }
  // The signature header itself, with the b= value removed, and no trailing CRLF.
  data += relaxedHeader(sigField.raw.replace(/(\bb=)[^;]*$/, '$1').replace(/(;\s*b=)[^;]*/, '$1'));
  const verifier = createVerify('RSA-SHA256');
  verifier.update(data, 'latin1');
  return { tags, bodyHashOk: bodyHash === tags.bh, signatureOk: verifier.verify(publicKey, tags.b ?? '', 'base64'), signedHeaders };
}
