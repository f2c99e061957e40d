/**
 * How each technology shows itself on a home page. A technology is detected when ANY of its
 * patterns matches. The sources:
 * - `assets`: the src of a <script> or the href of a <link> (stylesheets, preloads);
 * - `inline`: the text of an inline <script>;
 * - `html`: the HTML as a whole (attributes and ids a framework leaves, comments);
 * - `generator`: the content of <meta name="generator">;
 * - `headers`: a response header (lower-case name) whose value matches;
 * - `cookies`: the name of a cookie the response sets.
 * `implies` adds technologies a match proves (Next.js runs on React). The list order is the order
 * of the result.
 */
export interface Fingerprint {
  readonly name: string;
  readonly assets?: readonly RegExp[];
  readonly inline?: readonly RegExp[];
  readonly html?: readonly RegExp[];
  readonly generator?: RegExp;
  readonly headers?: Readonly<Record<string, RegExp>>;
  readonly cookies?: readonly RegExp[];
  readonly implies?: readonly string[];
}

export const FINGERPRINTS: readonly Fingerprint[] = [
  // Site builders and CMSs
  { name: 'WordPress', generator: /^WordPress/i, assets: [/\/wp-(content|includes)\//i], headers: { link: /rel="https:\/\/api\.w\.org\/"/i }, implies: ['PHP'] },
  { name: 'Shopify', assets: [/cdn\.shopify\.com/i], inline: [/\bShopify\.(shop|theme)\b/], headers: { 'x-shopid': /./, 'x-shopify-stage': /./ }, cookies: [/^_shopify_(y|s)$/] },
  { name: 'Webflow', generator: /^Webflow/i, html: [/\sdata-wf-(page|site)=/i], assets: [/(assets|uploads)[-.]?[a-z0-9-]*\.website-files\.com|webflow\.[a-z0-9]+\.js/i] },
  { name: 'Wix', generator: /^Wix\.com/i, assets: [/static\.(parastorage|wixstatic)\.com/i], headers: { 'x-wix-request-id': /./ } },
  { name: 'Squarespace', generator: /Squarespace/i, assets: [/(static1|assets)\.squarespace\.com/i], html: [/<!-- This is Squarespace\. -->/i] },
  { name: 'Framer', generator: /^Framer/i, assets: [/framerusercontent\.com|events\.framer\.com/i] },
  { name: 'Ghost', generator: /^Ghost/i },
  { name: 'Drupal', generator: /^Drupal/i, headers: { 'x-drupal-cache': /./, 'x-generator': /Drupal/i }, assets: [/\/sites\/(default|all)\/(files|themes|modules)\//i] },
  { name: 'Joomla', generator: /^Joomla/i },
  { name: 'HubSpot CMS', generator: /HubSpot/i, headers: { 'x-hs-hub-id': /./ } },
  // JavaScript frameworks
  { name: 'Next.js', html: [/<script[^>]+id="__NEXT_DATA__"/i], assets: [/\/_next\/static\//], headers: { 'x-powered-by': /Next\.js/i }, implies: ['React'] },
  { name: 'Nuxt', html: [/<div[^>]+id="__nuxt"/i], inline: [/window\.__NUXT__/], assets: [/\/_nuxt\//], implies: ['Vue.js'] },
  { name: 'Gatsby', generator: /^Gatsby/i, html: [/<div[^>]+id="___gatsby"/i], implies: ['React'] },
  { name: 'React', html: [/\sdata-reactroot(=|\s|>)/i], assets: [/\breact(-dom)?(\.production|\.development)?(\.min)?\.js\b/i] },
  { name: 'Vue.js', html: [/\sdata-v-[0-9a-f]{8}\b/i], assets: [/\bvue(\.runtime)?(\.global)?(\.prod|\.min)?\.js\b/i] },
  { name: 'Angular', html: [/\sng-version="/i], assets: [/\bangular(\.min)?\.js\b/i] },
  { name: 'Svelte', html: [/\sclass="[^"]*\bsvelte-[a-z0-9]{6}\b/i] },
  { name: 'jQuery', assets: [/\bjquery([.-]\d[\d.]*)?(\.slim)?(\.min)?\.js\b/i, /code\.jquery\.com/i] },
  // CSS
  { name: 'Bootstrap', assets: [/\bbootstrap(\.bundle)?(\.min)?\.(css|js)\b/i] },
  { name: 'Tailwind CSS', assets: [/cdn\.tailwindcss\.com|\btailwind(\.min)?\.css\b/i] },
  { name: 'Font Awesome', assets: [/font-?awesome|kit\.fontawesome\.com/i] },
  { name: 'Google Fonts', assets: [/fonts\.(googleapis|gstatic)\.com/i] },
  // Analytics and marketing
  { name: 'Google Tag Manager', assets: [/googletagmanager\.com\/gtm\.js/i], inline: [/\bGTM-[A-Z0-9]{4,}\b/] },
  { name: 'Google Analytics', assets: [/google-analytics\.com\/(analytics|ga)\.js/i, /googletagmanager\.com\/gtag\/js/i], inline: [/gtag\(\s*['"]config['"]\s*,\s*['"](G|UA)-/, /\bga\(\s*['"]create['"]/], cookies: [/^_ga(_|$)/] },
  { name: 'Segment', assets: [/cdn\.segment\.(com|io)\/analytics\.js/i], inline: [/analytics\.load\(\s*['"]/] },
  { name: 'HubSpot', assets: [/js\.hs-scripts\.com|js\.hsforms\.net|js\.hs-analytics\.net|js\.hubspot\.com/i], cookies: [/^hubspotutk$/, /^__hstc$/] },
  { name: 'Hotjar', assets: [/static\.hotjar\.com/i], inline: [/\bhjSettings\b/] },
  { name: 'Mixpanel', assets: [/cdn\.mxpnl\.com/i], inline: [/mixpanel\.init\(/] },
  { name: 'Facebook Pixel', assets: [/connect\.facebook\.net\/[^/]+\/fbevents\.js/i], inline: [/fbq\(\s*['"]init['"]/] },
  { name: 'LinkedIn Insight Tag', assets: [/snap\.licdn\.com/i], inline: [/_linkedin_partner_id/] },
  // Customer messaging and support
  { name: 'Intercom', assets: [/widget\.intercom\.io|js\.intercomcdn\.com/i], inline: [/\bintercomSettings\b/] },
  { name: 'Drift', assets: [/js\.driftt\.com/i], inline: [/\bdrift\.load\(/] },
  { name: 'Zendesk', assets: [/static\.zdassets\.com/i] },
  { name: 'Crisp', assets: [/client\.crisp\.chat/i] },
  // Payments, scheduling
  { name: 'Stripe', assets: [/js\.stripe\.com/i] },
  { name: 'Calendly', assets: [/assets\.calendly\.com/i] },
  // Hosting and servers
  { name: 'Cloudflare', headers: { server: /^cloudflare$/i, 'cf-ray': /./ }, cookies: [/^__cf_bm$/, /^__cfruid$/, /^cf_clearance$/] },
  { name: 'Vercel', headers: { server: /^Vercel$/i, 'x-vercel-id': /./ } },
  { name: 'Netlify', headers: { server: /^Netlify$/i, 'x-nf-request-id': /./ } },
  { name: 'Amazon CloudFront', headers: { via: /CloudFront/i, 'x-amz-cf-id': /./ } },
  { name: 'Nginx', headers: { server: /^nginx/i } },
  { name: 'Apache', headers: { server: /^Apache/i } },
  { name: 'PHP', headers: { 'x-powered-by': /^PHP/i }, cookies: [/^PHPSESSID$/] },
];
