import type { Category } from './categories';

/**
 * Suggested next actions. A next action is a slug, optionally followed by `:<argument>`:
 *
 * | slug                  | argument            | when                                                        |
 * |-----------------------|---------------------|-------------------------------------------------------------|
 * | send_calendar_link    | -                   | interested, no question asked and no time proposed           |
 * | answer_question       | -                   | a question to answer first (pricing, product, "who are you") |
 * | confirm_proposed_time | -                   | interested and proposed a meeting time                       |
 * | confirm_meeting       | -                   | meeting_booked                                               |
 * | hand_off_to_sales     | -                   | closed: contract, order form, onboarding                     |
 * | contact_referral      | an email, if given  | neutral: referred or forwarded to someone else               |
 * | review_manually       | -                   | neutral, nothing more specific applies                       |
 * | follow_up_after       | YYYY-MM-DD          | out_of_office with a return date (or last day away)          |
 * | follow_up_later       | YYYY-MM-DD, if found| out_of_office without a date; not_interested "not now, later"|
 * | stop_outreach         | -                   | not_interested with no later date                            |
 * | suppress              | -                   | unsubscribe (the address goes on the suppression list)       |
 *
 * Clients switch on the slug (the part before the first colon) and read the argument if present.
 */
export const NEXT_ACTIONS = [
  'send_calendar_link',
  'answer_question',
  'confirm_proposed_time',
  'confirm_meeting',
  'hand_off_to_sales',
  'contact_referral',
  'review_manually',
  'follow_up_after',
  'follow_up_later',
  'stop_outreach',
  'suppress',
] as const;
export type NextActionSlug = (typeof NEXT_ACTIONS)[number];

/** The slugs that fit each category; the first is the default when nothing more specific is known. */
export const NEXT_ACTIONS_BY_CATEGORY: Readonly<Record<Category, readonly NextActionSlug[]>> = {
  interested: ['send_calendar_link', 'answer_question', 'confirm_proposed_time'],
  meeting_booked: ['confirm_meeting'],
  closed: ['hand_off_to_sales'],
  neutral: ['review_manually', 'contact_referral', 'answer_question'],
  not_interested: ['stop_outreach', 'follow_up_later'],
  out_of_office: ['follow_up_later', 'follow_up_after'],
  unsubscribe: ['suppress'],
};

/** What the text revealed beyond the category; every field is optional. */
export interface NextActionSignals {
  /** The reply proposes a meeting time. */
  readonly proposedTime?: boolean;
  /** The reply asks a question (a question mark, or a price/product request). */
  readonly asksQuestion?: boolean;
  /** Referred or forwarded to someone else. */
  readonly referral?: boolean;
  /** An address the reply points to (referral, "contact X instead"). */
  readonly referralEmail?: string;
  /** out_of_office: the return date, YYYY-MM-DD. */
  readonly returnDate?: string;
  /** not_interested: when they said to try again, YYYY-MM-DD; or true when "later" had no date. */
  readonly followUpLater?: string | true;
}

const withArg = (slug: NextActionSlug, arg?: string): string => (arg ? `${slug}:${arg}` : slug);

/** The next action for a category, refined by what the reply said. */
export function nextActionFor(category: Category, s: NextActionSignals = {}): string {
  switch (category) {
    case 'interested':
      if (s.proposedTime) return 'confirm_proposed_time';
      return s.asksQuestion ? 'answer_question' : 'send_calendar_link';
    case 'meeting_booked':
      return 'confirm_meeting';
    case 'closed':
      return 'hand_off_to_sales';
    case 'neutral':
      if (s.referral || s.referralEmail) return withArg('contact_referral', s.referralEmail);
      return s.asksQuestion ? 'answer_question' : 'review_manually';
    case 'not_interested':
      if (s.followUpLater) return withArg('follow_up_later', s.followUpLater === true ? undefined : s.followUpLater);
      return 'stop_outreach';
    case 'out_of_office':
      return s.returnDate ? withArg('follow_up_after', s.returnDate) : 'follow_up_later';
    case 'unsubscribe':
      return 'suppress';
  }
}

/** Whether a next action (from an LLM, say) is a known slug that fits the category. */
export function fitsCategory(category: Category, nextAction: string): boolean {
  const slug = nextAction.split(':', 1)[0] as NextActionSlug;
  return NEXT_ACTIONS_BY_CATEGORY[category].includes(slug);
}
