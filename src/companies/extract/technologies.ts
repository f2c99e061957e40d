import type { CheerioAPI } from 'cheerio';
import { FINGERPRINTS, type Fingerprint } from './technology-fingerprints';

export interface TechnologyEvidence {
  readonly $: CheerioAPI;
  readonly html: string;
  readonly headers: { get(name: string): string | null; getSetCookie(): string[] };
}

/** The technologies of FINGERPRINTS the page shows, in table order. */
export function extractTechnologies(page: TechnologyEvidence, fingerprints: readonly Fingerprint[] = FINGERPRINTS): string[] {
  const { $ } = page;
  const assets = [
    ...$('script[src]').toArray().map((el) => $(el).attr('src') ?? ''),
    ...$('link[href]').toArray().map((el) => $(el).attr('href') ?? ''),
  ];
  const inline = $('script:not([src])').toArray().map((el) => $(el).text());
  const generator = $('meta[name="generator" i]').toArray().map((el) => $(el).attr('content') ?? '');
  const cookies = page.headers.getSetCookie().map((c) => c.split('=')[0]?.trim() ?? '');
  const any = (patterns: readonly RegExp[] | undefined, values: readonly string[]): boolean =>
    patterns !== undefined && patterns.some((p) => values.some((v) => p.test(v)));

  const found = new Set<string>();
  for (const f of fingerprints) {
    const headerHit = Object.entries(f.headers ?? {}).some(([name, p]) => {
      const v = page.headers.get(name);
      return v !== null && p.test(v);
    });
    const hit =
      headerHit ||
      any(f.assets, assets) ||
      any(f.inline, inline) ||
      any(f.html, [page.html]) ||
      (f.generator !== undefined && generator.some((g) => f.generator?.test(g))) ||
      any(f.cookies, cookies);
    if (hit) {
      found.add(f.name);
      for (const implied of f.implies ?? []) found.add(implied);
    }
  }
  return fingerprints.map((f) => f.name).filter((n) => found.has(n));
}
