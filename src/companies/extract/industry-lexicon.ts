/**
 * Words that point at an industry. Matched case-insensitively as whole words; a space in a term
 * matches any run of whitespace or a hyphen. Terms are chosen to be specific: "platform" or
 * "solutions" say nothing, "payroll" or "telehealth" do.
 */
export const INDUSTRY_LEXICON: ReadonlyArray<{ readonly industry: string; readonly terms: readonly string[] }> = [
  { industry: 'saas', terms: ['saas', 'software as a service', 'cloud software', 'cloud based software', 'subscription software', 'b2b software'] },
  { industry: 'ai', terms: ['ai', 'artificial intelligence', 'machine learning', 'llm', 'llms', 'generative ai', 'gpt', 'deep learning', 'computer vision', 'nlp'] },
  { industry: 'fintech', terms: ['fintech', 'payments', 'payment processing', 'banking', 'neobank', 'lending', 'loans', 'credit card', 'invoicing', 'accounting', 'bookkeeping', 'expense management', 'financial services', 'wealth management', 'crypto', 'blockchain'] },
  { industry: 'insurance', terms: ['insurance', 'insurtech', 'underwriting', 'claims processing', 'policyholders'] },
  { industry: 'healthcare', terms: ['healthcare', 'health care', 'patients', 'patient', 'clinical', 'clinic', 'clinics', 'medical', 'telehealth', 'telemedicine', 'hospital', 'hospitals', 'pharma', 'pharmaceutical', 'biotech', 'dental', 'mental health'] },
  { industry: 'e-commerce', terms: ['e-commerce', 'ecommerce', 'online store', 'online shop', 'storefront', 'shopping cart', 'checkout', 'dtc', 'direct to consumer', 'marketplace', 'retail'] },
  { industry: 'education', terms: ['education', 'edtech', 'e-learning', 'elearning', 'online courses', 'courses', 'students', 'teachers', 'learning management', 'lms', 'tutoring', 'university', 'school', 'schools'] },
  { industry: 'logistics', terms: ['logistics', 'shipping', 'freight', 'supply chain', 'fleet', 'fleet management', 'warehouse', 'warehousing', 'last mile', 'courier', 'fulfillment', 'fulfilment', 'trucking'] },
  { industry: 'real estate', terms: ['real estate', 'proptech', 'property management', 'properties', 'mortgage', 'mortgages', 'realtor', 'realtors', 'rentals', 'tenants', 'landlords', 'commercial property'] },
  { industry: 'marketing', terms: ['marketing', 'advertising', 'seo', 'email marketing', 'content marketing', 'social media marketing', 'lead generation', 'demand generation', 'branding', 'campaigns', 'adtech', 'influencer'] },
  { industry: 'sales', terms: ['crm', 'sales', 'sales teams', 'pipeline', 'prospecting', 'outbound', 'outreach', 'revenue teams', 'deal flow'] },
  { industry: 'cybersecurity', terms: ['cybersecurity', 'cyber security', 'threat detection', 'security operations', 'application security', 'cloud security', 'malware', 'ransomware', 'zero trust', 'penetration testing', 'siem', 'endpoint protection', 'identity and access', 'vulnerability'] },
  { industry: 'developer tools', terms: ['developers', 'developer', 'api', 'apis', 'sdk', 'sdks', 'devops', 'ci/cd', 'open source', 'infrastructure as code', 'observability'] },
  { industry: 'data & analytics', terms: ['analytics', 'business intelligence', 'data warehouse', 'data pipeline', 'data pipelines', 'dashboards', 'big data', 'data platform'] },
  { industry: 'hr & recruiting', terms: ['hr', 'human resources', 'recruiting', 'recruitment', 'hiring', 'talent', 'payroll', 'onboarding employees', 'applicant tracking', 'employee engagement', 'workforce'] },
  { industry: 'legal', terms: ['legal', 'legaltech', 'law firm', 'law firms', 'lawyers', 'attorneys', 'contracts', 'contract management'] },
  { industry: 'travel & hospitality', terms: ['travel', 'hotels', 'hotel', 'hospitality', 'bookings', 'vacation', 'airline', 'airlines', 'tourism'] },
  { industry: 'food & beverage', terms: ['restaurant', 'restaurants', 'food', 'beverage', 'beverages', 'catering', 'recipes', 'meal', 'meals', 'coffee'] },
  { industry: 'media & entertainment', terms: ['media company', 'digital media', 'entertainment', 'streaming', 'music', 'film', 'podcast', 'podcasts', 'publishing', 'newsroom'] },
  { industry: 'gaming', terms: ['gaming', 'video games', 'game studio', 'esports', 'gamers'] },
  { industry: 'energy', terms: ['energy', 'solar', 'renewable', 'renewables', 'cleantech', 'climate tech', 'battery', 'batteries', 'electric vehicles', 'ev charging', 'utilities', 'oil and gas'] },
  { industry: 'manufacturing', terms: ['manufacturing', 'manufacturer', 'factory', 'factories', 'industrial', 'production line', 'cnc', 'machining'] },
  { industry: 'construction', terms: ['construction', 'contractors', 'builders', 'architecture', 'renovation', 'building materials'] },
  { industry: 'automotive', terms: ['automotive', 'cars', 'vehicles', 'dealership', 'dealerships', 'auto parts'] },
  { industry: 'agriculture', terms: ['agriculture', 'agtech', 'farming', 'farmers', 'crops', 'agritech'] },
  { industry: 'telecommunications', terms: ['telecom', 'telecommunications', 'voip', 'sms', 'mobile network', 'broadband', '5g'] },
  { industry: 'consulting', terms: ['consulting', 'consultancy', 'consultants', 'advisory', 'agency'] },
  { industry: 'nonprofit', terms: ['nonprofit', 'non-profit', 'charity', 'charities', 'donate', 'donations', 'fundraising', 'ngo'] },
];
