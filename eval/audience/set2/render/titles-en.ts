/**
 * English titles as exports write them. For every role: plain forms ("Head of Sales"), inverted
 * forms ("Manager, Human Resources", "SVP, Sales", "Director - Finance") and abbreviated forms
 * ("Dir. Finance", "VP Eng", "Sr. Mgr, Marketing", "Hd of Ops"). The VP, head, director and manager
 * tiers of the business functions are built from how each function is named; the C-level, the
 * individual contributors and the distractors are listed one by one. Modifiers, founder pairs and
 * noise are templates applied on top (titles.ts).
 */
import type { FunctionId, Level, RoleId } from '../truth';

export interface EnglishForms {
  readonly plain: readonly string[];
  readonly inverted?: readonly string[];
  readonly abbreviated?: readonly string[];
}

interface FunctionNames {
  /** Names of the function after "VP of", "Head of", "Director of". */
  readonly names: readonly string[];
  /** Short forms ("Eng", "Mktg", "Ops"). */
  readonly abbr: readonly string[];
  /** Names before "Manager" that make a people manager ("Customer Service Manager"), if any. */
  readonly mgr: readonly string[];
}

type BusinessFunction = Exclude<FunctionId, 'executive' | 'other'>;

const NAMES: Record<BusinessFunction, FunctionNames> = {
  engineering: {
    names: ['Engineering', 'Software Engineering', 'Software Development', 'Development'],
    abbr: ['Eng', 'Eng.', 'Engg.', 'Dev'],
    mgr: ['Engineering', 'Software Engineering', 'Development', 'Software Development'],
  },
  product: { names: ['Product', 'Product Management'], abbr: ['Prod.', 'PM'], mgr: [] },
  design: { names: ['Design', 'UX', 'Product Design', 'User Experience'], abbr: ['UX', 'Dsgn'], mgr: ['Design', 'UX', 'UX Design'] },
  marketing: {
    names: ['Marketing', 'Growth', 'Brand & Marketing', 'Demand Generation'],
    abbr: ['Mktg', 'Mkt.'],
    mgr: ['Marketing', 'Digital Marketing', 'Performance Marketing', 'Demand Generation'],
  },
  sales: {
    names: ['Sales', 'Business Development', 'Sales & Business Development'],
    abbr: ['BD', 'Bus. Dev.'],
    mgr: ['Sales', 'Inside Sales', 'Regional Sales', 'Area Sales', 'Field Sales'],
  },
  customer_success: {
    names: ['Customer Success', 'Customer Service', 'Customer Support', 'Customer Experience', 'Support', 'Customer Care'],
    abbr: ['CS', 'CX', 'Cust. Svc'],
    // "Customer Success Manager" is an account-owning individual contributor, not a people manager.
    mgr: ['Customer Service', 'Customer Support', 'Support', 'Customer Care', 'Customer Experience'],
  },
  people: {
    names: ['People', 'Human Resources', 'HR', 'People & Culture', 'Talent', 'Talent Acquisition'],
    abbr: ['HR', 'P&C'],
    mgr: ['HR', 'Human Resources', 'Talent Acquisition', 'People & Culture', 'Recruiting'],
  },
  finance: {
    names: ['Finance', 'Finance & Accounting', 'Accounting', 'FP&A', 'Financial Planning & Analysis'],
    abbr: ['Fin.', 'Fin', 'Acctg'],
    mgr: ['Finance', 'Accounting', 'Finance & Accounting', 'FP&A'],
  },
  operations: {
    names: ['Operations', 'Business Operations', 'Supply Chain', 'Procurement', 'Logistics'],
    abbr: ['Ops', 'Ops.', 'BizOps'],
    mgr: ['Operations', 'Supply Chain', 'Logistics', 'Office', 'Procurement', 'Warehouse'],
  },
  legal: { names: ['Legal', 'Legal Affairs', 'Legal & Compliance'], abbr: ['Legal'], mgr: ['Legal', 'Contracts', 'Legal & Compliance'] },
  it: {
    names: ['IT', 'Information Technology', 'IT Infrastructure', 'IT Operations'],
    abbr: ['IT', 'Info. Tech.'],
    mgr: ['IT', 'IT Operations', 'IT Infrastructure', 'IT Service', 'Infrastructure'],
  },
  data: {
    names: ['Data', 'Analytics', 'Data Science', 'Data & Analytics', 'Business Intelligence'],
    abbr: ['BI', 'D&A'],
    mgr: ['Analytics', 'Data Science', 'BI', 'Data & Analytics', 'Data Engineering'],
  },
  security: {
    names: ['Security', 'Information Security', 'Cybersecurity', 'IT Security'],
    abbr: ['InfoSec', 'Sec.', 'Cyber'],
    mgr: ['Information Security', 'IT Security', 'Cybersecurity', 'Security Operations'],
  },
};

/** The VP, head, director and manager tiers of a function, from its names. */
function tierForms(fn: BusinessFunction, level: Level): EnglishForms {
  const { names, abbr, mgr } = NAMES[fn];
  const [n0, n1 = names[0]!] = names as [string, string?];
  const a0 = abbr[0]!;
  switch (level) {
    case 'vp':
      return {
        plain: names.flatMap((n) => [`VP of ${n}`, `Vice President of ${n}`, `VP ${n}`]),
        inverted: [`Vice President, ${n0}`, `SVP, ${n0}`, `VP - ${n1}`, `EVP, ${n0}`, `VP, ${n1}`],
        abbreviated: [...abbr.map((a) => `VP ${a}`), `EVP ${n0}`, `SVP ${n0}`, `Sr. VP ${n0}`],
      };
    case 'head':
      return {
        plain: names.map((n) => `Head of ${n}`),
        inverted: [`Head, ${n0}`, `${n0} Head`, `Head - ${n1}`],
        abbreviated: [...abbr.map((a) => `Head of ${a}`), `Hd of ${a0}`, `Hd. ${n0}`],
      };
    case 'director':
      return {
        plain: names.flatMap((n) => [`Director of ${n}`, `${n} Director`]),
        inverted: [`Director, ${n0}`, `Director - ${n0}`, `Director – ${n1}`, `Director, ${n1}`],
        abbreviated: [`Dir. ${n0}`, ...abbr.map((a) => `Dir. of ${a}`), `${a0} Dir.`, `Dir, ${a0}`],
      };
    case 'manager': {
      const [m0, m1 = mgr[0]!] = mgr as [string, string?];
      return {
        plain: mgr.map((n) => `${n} Manager`),
        inverted: [`Manager, ${m0}`, `Manager - ${m1}`, `Manager, ${m1}`],
        abbreviated: [`${m0} Mgr`, `Mgr, ${m0}`, `Sr. Mgr, ${m0}`, `${m1} Mgr.`],
      };
    }
    default:
      throw new Error(`no tier forms for ${fn} ${level}`);
  }
}

/** Roles written one by one: the C-level, individual contributors, entry roles, distractors. */
const LISTED: Partial<Record<RoleId, EnglishForms>> = {
  ceo: { plain: ['CEO', 'Chief Executive Officer', 'Managing Director', 'President', 'Chief Executive'], abbreviated: ['C.E.O.'] },
  founder: { plain: ['Founder', 'Co-Founder', 'Co-founder', 'Cofounder', 'Founding Partner'] },
  deputy_ceo: { plain: ['Deputy CEO', 'Deputy Managing Director', 'Vice Chairman'], abbreviated: ['Dep. CEO', 'Deputy MD'] },
  cto: { plain: ['CTO', 'Chief Technology Officer', 'Chief Technical Officer'], abbreviated: ['C.T.O.'] },
  software_engineer: {
    plain: ['Software Engineer', 'Software Developer', 'Backend Engineer', 'Full Stack Developer', 'Frontend Developer', 'DevOps Engineer', 'QA Engineer'],
    inverted: ['Engineer, Software', 'Developer - Backend', 'Engineer - Platform'],
    abbreviated: ['SWE', 'Software Eng.', 'Sw Engineer', 'Sw. Dev.'],
  },
  engineering_intern: { plain: ['Software Engineering Intern', 'Graduate Software Engineer', 'Apprentice Developer'] },
  cpo: { plain: ['Chief Product Officer'], abbreviated: ['CPO'] },
  product_manager: { plain: ['Product Manager', 'Product Owner', 'Technical Product Manager'], abbreviated: ['Prod. Manager'] },
  associate_product_manager: { plain: ['Associate Product Manager', 'Product Management Intern'], abbreviated: ['APM'] },
  chief_design_officer: { plain: ['Chief Design Officer', 'Chief Creative Officer'] },
  designer: { plain: ['Product Designer', 'UX Designer', 'UI/UX Designer', 'Graphic Designer', 'Visual Designer'], inverted: ['Designer, Product'] },
  design_intern: { plain: ['Design Intern', 'UX Design Intern'] },
  cmo: { plain: ['CMO', 'Chief Marketing Officer', 'Chief Growth Officer'], abbreviated: ['C.M.O.'] },
  marketing_specialist: {
    plain: ['Marketing Specialist', 'Content Marketer', 'SEO Specialist', 'Growth Marketer', 'Marketing Executive', 'Digital Marketing Executive'],
    inverted: ['Specialist, Marketing', 'Specialist - Content Marketing'],
    abbreviated: ['Mktg Specialist', 'Mktg Exec'],
  },
  marketing_assistant: { plain: ['Marketing Intern', 'Marketing Assistant', 'Marketing Coordinator'], abbreviated: ['Mktg Coordinator'] },
  cro: { plain: ['Chief Revenue Officer', 'Chief Sales Officer', 'Chief Commercial Officer'], abbreviated: ['CRO'] },
  sales_rep: {
    plain: ['Sales Representative', 'Sales Rep', 'Account Executive', 'Inside Sales Representative', 'Sales Executive'],
    inverted: ['Representative, Sales', 'Account Executive - Enterprise'],
    abbreviated: ['AE', 'Sales Rep.', 'Acct Exec'],
  },
  account_manager: { plain: ['Account Manager', 'Key Account Manager', 'Client Manager'], abbreviated: ['KAM', 'Acct Manager'] },
  sales_engineer: { plain: ['Sales Engineer', 'Solutions Engineer', 'Pre-Sales Engineer', 'Solutions Consultant'], abbreviated: ['SE (Pre-Sales)'] },
  financial_advisor: { plain: ['Financial Advisor', 'Wealth Advisor', 'Financial Planner'] },
  sdr: { plain: ['Sales Development Representative', 'Business Development Representative'], abbreviated: ['SDR', 'BDR'] },
  cco: { plain: ['Chief Customer Officer', 'Chief Experience Officer'] },
  support_specialist: {
    plain: ['Customer Success Manager', 'Customer Support Specialist', 'Customer Service Representative', 'Support Agent', 'Customer Care Advisor'],
    abbreviated: ['CSM', 'CSR'],
  },
  chro: { plain: ['Chief People Officer', 'Chief Human Resources Officer', 'Chief HR Officer'], abbreviated: ['CHRO'] },
  hr_specialist: {
    plain: ['HR Business Partner', 'Recruiter', 'Talent Acquisition Specialist', 'HR Generalist', 'People Partner'],
    inverted: ['Business Partner, HR'],
    abbreviated: ['HRBP'],
  },
  hr_assistant: { plain: ['HR Assistant', 'HR Intern', 'Recruiting Coordinator'] },
  cfo: { plain: ['CFO', 'Chief Financial Officer', 'Chief Finance Officer'], abbreviated: ['C.F.O.'] },
  accountant: { plain: ['Accountant', 'Staff Accountant', 'Bookkeeper', 'Chartered Accountant'], inverted: ['Accountant, General Ledger'], abbreviated: ['Acct.'] },
  financial_analyst: { plain: ['Financial Analyst', 'FP&A Analyst', 'Finance Analyst'], abbreviated: ['Fin. Analyst'] },
  finance_assistant: { plain: ['Accounts Payable Clerk', 'Finance Intern', 'Accounting Assistant'], abbreviated: ['AP Clerk'] },
  coo: { plain: ['COO', 'Chief Operating Officer', 'Chief Operations Officer'], abbreviated: ['C.O.O.'] },
  operations_specialist: {
    plain: ['Operations Analyst', 'Operations Specialist', 'Buyer', 'Procurement Specialist', 'Operations Associate'],
    inverted: ['Analyst, Operations'],
    abbreviated: ['Ops Analyst', 'Ops Specialist'],
  },
  operations_assistant: { plain: ['Operations Intern', 'Operations Coordinator'], abbreviated: ['Ops Coordinator'] },
  data_entry_clerk: { plain: ['Data Entry Clerk', 'Data Entry Operator'] },
  clo: { plain: ['General Counsel', 'Chief Legal Officer'], abbreviated: ['CLO', 'GC'] },
  counsel: { plain: ['Legal Counsel', 'Corporate Counsel', 'In-house Lawyer', 'Associate Attorney', 'Solicitor'], inverted: ['Counsel, Commercial'] },
  paralegal: { plain: ['Paralegal', 'Legal Assistant'] },
  cio: { plain: ['CIO', 'Chief Information Officer'], abbreviated: ['C.I.O.'] },
  it_specialist: {
    plain: ['Systems Administrator', 'IT Support Specialist', 'Network Administrator', 'Service Desk Analyst'],
    abbreviated: ['SysAdmin', 'Sys Admin'],
  },
  cdo: { plain: ['Chief Data Officer', 'Chief Data & Analytics Officer'], abbreviated: ['CDAO'] },
  data_specialist: { plain: ['Data Scientist', 'Data Analyst', 'Data Engineer', 'BI Analyst', 'Analytics Engineer'], inverted: ['Analyst, Data'] },
  ciso: { plain: ['CISO', 'Chief Information Security Officer'], abbreviated: ['C.I.S.O.'] },
  security_specialist: { plain: ['Security Engineer', 'Security Analyst', 'SOC Analyst', 'Penetration Tester'], abbreviated: ['Sec. Engineer'] },
  head_chef: { plain: ['Head Chef', 'Executive Chef', 'Chef de Cuisine'] },
  director_of_photography: { plain: ['Director of Photography'], abbreviated: ['DoP', 'DP'] },
  nurse: { plain: ['Registered Nurse', 'Staff Nurse', 'Nurse Practitioner'], abbreviated: ['RN'] },
  medical_director: { plain: ['Medical Director', 'Clinical Director'] },
  chief_medical_officer: { plain: ['Chief Medical Officer'] },
  executive_assistant: { plain: ['Executive Assistant', 'Executive Assistant to the CEO', 'Personal Assistant to the Managing Director'], abbreviated: ['EA to CEO'] },
  security_guard: { plain: ['Security Guard', 'Security Officer'] },
  lecturer: { plain: ['Lecturer in Marketing', 'Professor of Finance', 'Associate Professor of Computer Science'] },
  managing_editor: { plain: ['Managing Editor'] },
};

const TIERS: readonly Level[] = ['vp', 'head', 'director', 'manager'];

/** The English forms of a role: listed ones, else the function's tier forms. */
export function englishForms(role: RoleId, fn: FunctionId, level: Level): EnglishForms {
  const listed = LISTED[role];
  if (listed !== undefined) return listed;
  if (fn !== 'executive' && fn !== 'other' && TIERS.includes(level)) return tierForms(fn, level);
  throw new Error(`no English titles for ${role}`);
}

/**
 * Modifiers, by the level of the title they modify and the level they give. "Senior HR Manager" is
 * an HR manager and "Global Head of Sales" a head of sales (the level stays); "Senior Accountant" is
 * a senior individual contributor and "Junior Accountant" an entry one.
 */
export const MODIFIERS: Readonly<Record<string, readonly string[]>> = {
  'ic>senior': ['Senior {t}', 'Sr. {t}', 'Lead {t}', 'Principal {t}', 'Senior {t} II'],
  'ic>entry': ['Junior {t}', 'Jr. {t}', 'Graduate {t}', 'Trainee {t}', 'Associate {t}'],
  'manager>manager': ['Senior {t}', 'Sr. {t}', 'Regional {t}', 'Global {t}'],
  'director>director': ['Senior {t}', 'Regional {t}', 'Global {t}', 'Group {t}'],
  'head>head': ['Deputy {t}', 'Global {t}', 'Interim {t}', 'Acting {t}', 'Group {t}'],
  'vp>vp': ['Senior {t}', 'Global {t}', 'Interim {t}', 'Executive {t}'],
  'c_level>c_level': ['Interim {t}', 'Acting {t}', 'Group {t}', 'Global {t}'],
};

/** A founder's two roles in one title. Founders are C-level whatever their other role says. */
export const FOUNDER_PAIRS: readonly string[] = [
  '{t} / Co-Founder',
  'Co-Founder & {t}',
  'Founder & {t}',
  '{t} & Co-founder',
  'Co-founder, {t}',
  '{t} | Co-founder',
  'Co-Founder and {t}',
  'Founder and {t}',
  'Co-founder / {t}',
];

/** Two roles of one person that are not a founder's (the level is the higher role's). */
export const OTHER_PAIRS: Partial<Record<RoleId, readonly string[]>> = {
  ceo: ['President & CEO', 'Chairman & CEO', 'CEO & Board Member', 'Managing Director & Board Member', 'CEO & President'],
  clo: ['General Counsel & Company Secretary', 'General Counsel and Corporate Secretary', 'Chief Legal Officer & Corporate Secretary'],
  coo: ['COO & Chief of Staff', 'Chief Operating Officer & Board Member'],
};

/** What exports append to a title: the company, a territory, a working mode. */
export const NOISE: readonly string[] = [
  ', {company}',
  ' - EMEA',
  ' (Remote)',
  ' | DACH',
  ' @ {company}',
  ' – Europe',
  ' at {company}',
  ' | Nordics',
  ' - North America',
  ' (Remote, EU)',
  ' - Benelux',
  ' | {company}',
];
