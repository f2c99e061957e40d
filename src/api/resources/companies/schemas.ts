import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/common-schemas';

const NullableText = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const Profile = (network: string) => Type.Optional(Type.String({ format: 'uri', description: `The company's ${network} profile.` }));

export const ScrapeCompanyBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'The company site: an http(s) URL, or a bare domain such as `acme.com` (https is assumed).',
    }),
  },
  { additionalProperties: false },
);

export const CompanyIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'A company id (co_…).' }) });

export const CompanySchema = Type.Object(
  {
    id: Type.String({ description: 'Company id (co_…). Scraping the same domain again updates this company and keeps its id.' }),
    url: Type.String({ format: 'uri', description: 'The page the facts come from, after redirects.' }),
    domain: Type.String({ description: 'The host asked for, lower-case, without `www.` and port: one company per domain and account.' }),
    name: NullableText('From og:site_name or application-name, else the page title without its tagline; null when the page has neither.'),
    description: NullableText('The meta (or og:) description, else the first paragraph of prose; at most 500 characters.'),
    logoUrl: NullableText('Absolute URL of the logo: a logo image in the header, else apple-touch-icon, og:image or the favicon.'),
    socialLinks: Type.Object(
      {
        linkedin: Profile('LinkedIn'),
        twitter: Profile('X (Twitter)'),
        facebook: Profile('Facebook'),
        instagram: Profile('Instagram'),
        youtube: Profile('YouTube'),
        github: Profile('GitHub'),
        tiktok: Profile('TikTok'),
      },
      { additionalProperties: false, description: 'Profile links found on the site (share buttons are ignored); a network without one is absent.' },
    ),
    contactEmails: Type.Array(Type.String(), { description: 'Addresses from mailto: links and the visible text, lower-case, de-duplicated; from the contact page when the home page has none.' }),
    technologies: Type.Array(Type.String(), { description: 'Technologies seen in scripts, stylesheets, meta generator, response headers and cookies (e.g. "WordPress", "Next.js", "HubSpot").' }),
    industryKeywords: Type.Array(Type.String(), { description: 'Up to five industries the site talks about, most mentioned first (e.g. "saas", "fintech", "e-commerce").' }),
    scrapedAt: Timestamp,
  },
  { additionalProperties: false },
);
