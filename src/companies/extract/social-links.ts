import type { CheerioAPI } from 'cheerio';
import { absoluteUrl } from './text';

export type SocialNetwork = 'linkedin' | 'twitter' | 'facebook' | 'instagram' | 'youtube' | 'github' | 'tiktok';
export type SocialLinks = Partial<Record<SocialNetwork, string>>;

interface ProfileRule {
  readonly network: SocialNetwork;
  /** The host or any subdomain of it (www., m., uk.). */
  readonly hosts: readonly string[];
  /** A profile's path. Share buttons, posts and site pages do not match. */
  readonly profile: RegExp;
}

/**
 * What a profile link looks like on each network. A profile is one account's page, so share
 * dialogs (twitter.com/intent/tweet, facebook.com/sharer.php, linkedin.com/shareArticle), single
 * posts (/status/, /p/, /watch) and the networks' own pages (/home, /login, /explore) are left out.
 */
export const PROFILE_RULES: readonly ProfileRule[] = [
  { network: 'linkedin', hosts: ['linkedin.com'], profile: /^\/(company|in|school|showcase)\/[^/]+\/?$/i },
  {
    network: 'twitter',
    hosts: ['twitter.com', 'x.com'],
    profile: /^\/(?!(intent|share|home|search|hashtag|i|explore|login|signup|settings|tos|privacy|messages|notifications)\/?$)[A-Za-z0-9_]{1,15}\/?$/i,
  },
  {
    network: 'facebook',
    hosts: ['facebook.com', 'fb.com'],
    profile: /^\/(?!(sharer|sharer\.php|share|share\.php|dialog|plugins|tr|login|login\.php|watch|groups|events|help|policies|privacy)\/?$)(pages\/[^/]+\/\d+|[A-Za-z0-9.-]{2,})\/?$/i,
  },
  { network: 'instagram', hosts: ['instagram.com'], profile: /^\/(?!(p|reel|reels|explore|accounts|stories|tv|direct|about|legal)\/?$)[A-Za-z0-9_.]{1,30}\/?$/i },
  { network: 'youtube', hosts: ['youtube.com'], profile: /^\/(@[A-Za-z0-9_.-]+|(channel|c|user)\/[^/]+)\/?$/i },
  {
    network: 'github',
    hosts: ['github.com'],
    profile:
      /^\/(?!(features|pricing|login|join|signup|about|sponsors|marketplace|topics|explore|orgs|settings|enterprise|security|site|collections|trending|events|apps|customer-stories|readme|team|contact|home)\/?$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/?$/i,
  },
  { network: 'tiktok', hosts: ['tiktok.com'], profile: /^\/@[A-Za-z0-9_.]{2,24}\/?$/i },
];

/**
 * The first profile link of each network on the page, as `https://host/path` without query,
 * fragment or trailing slash.
 */
export function extractSocialLinks($: CheerioAPI, base: URL): SocialLinks {
  const found: SocialLinks = {};
  $('a[href]').each((_i, el) => {
    const url = absoluteUrl($(el).attr('href'), base);
    if (url === null) return;
    const host = url.hostname.toLowerCase();
    const rule = PROFILE_RULES.find((r) => found[r.network] === undefined && r.hosts.some((h) => host === h || host.endsWith(`.${h}`)));
    if (rule !== undefined && rule.profile.test(url.pathname)) {
      found[rule.network] = `https://${host}${url.pathname.replace(/\/+$/, '')}`;
    }
  });
  return found;
}
