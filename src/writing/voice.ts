export type VoiceName = 'sales' | 'partnerships' | 'recruiting' | 'fundraising' | 'feedback' | 'generic';

const RULES: ReadonlyArray<[RegExp, VoiceName]> = [
  [/partner|alliance|affiliate|reseller|integration/i, 'partnerships'],
  [/recruit|hiring|hire|talent|candidate|job/i, 'recruiting'],
  [/fund|invest|raise|raising|vc\b|angel/i, 'fundraising'],
  [/feedback|survey|review|customer_?success|interview/i, 'feedback'],
  [/sales|sell|demo|lead-?gen|prospect|outbound|pipeline/i, 'sales'],
];

/**
 * The voice for an outreach template name. Template names are the registry's (e.g.
 * `sales-outreach`, `partnerships`); any name with none of these words gets the generic voice.
 */
export function voiceOf(mcp: string): VoiceName {
  return RULES.find(([re]) => re.test(mcp))?.[1] ?? 'generic';
}
