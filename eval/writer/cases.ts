/** The writer evaluation's case files (CASES.md): one JSON object a line, checked field by field. */

export interface WriterCase {
  readonly id: string;
  readonly preset: string;
  readonly target: { readonly url: string; readonly scrape: { readonly name: string | null; readonly description: string | null; readonly industryKeywords: readonly string[] } | null };
  readonly campaign: { readonly targetAudience: string | null; readonly targetOutcome: string | null; readonly valueForTarget: string | null; readonly calendarLink: string | null };
  readonly sender: { readonly name: string | null; readonly signature: string | null };
  readonly lead: {
    readonly email: string;
    readonly firstName: string | null;
    readonly lastName: string | null;
    readonly title: string | null;
    readonly company: string | null;
    readonly industry: string | null;
    readonly city: string | null;
    readonly country: string | null;
  };
}

const text = (v: unknown): v is string | null => v === null || typeof v === 'string';

function check(o: unknown, where: string): WriterCase {
  const c = o as WriterCase;
  const bad = (what: string): never => {
    throw new Error(`${where}: ${what}`);
  };
  if (typeof c?.id !== 'string' || typeof c.preset !== 'string') bad('id and preset must be strings');
  if (typeof c.target?.url !== 'string') bad('target.url must be a string');
  if (c.target.scrape !== null && (typeof c.target.scrape !== 'object' || !Array.isArray(c.target.scrape.industryKeywords))) bad('target.scrape must be null or {name, description, industryKeywords}');
  for (const k of ['targetAudience', 'targetOutcome', 'valueForTarget', 'calendarLink'] as const) if (!text(c.campaign?.[k])) bad(`campaign.${k} must be a string or null`);
  for (const k of ['name', 'signature'] as const) if (!text(c.sender?.[k])) bad(`sender.${k} must be a string or null`);
  if (typeof c.lead?.email !== 'string') bad('lead.email must be a string');
  for (const k of ['firstName', 'lastName', 'title', 'company', 'industry', 'city', 'country'] as const) if (!text(c.lead[k])) bad(`lead.${k} must be a string or null`);
  return c;
}

export function parseCases(content: string, file: string): WriterCase[] {
  return content
    .split('\n')
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter((l) => l.line !== '')
    .map((l) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(l.line);
      } catch {
        throw new Error(`${file}:${l.n}: not JSON`);
      }
      return check(parsed, `${file}:${l.n}`);
    });
}
