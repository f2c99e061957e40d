/**
 * The outreach templates (`mcp` on Surface A): named sequences the service ships. Pure data, so the
 * workflow (which sequences the emails) and the API (which validates `mcp` and renders the list of
 * valid names) read the same registry.
 *
 * A sequence is a first email and its follow-ups. `delayDays` counts calendar days from the
 * previous step to this one; a step due on a day the campaign does not send (a weekend under
 * `weekdays`) leaves on the next sending day. Every sequence stops for a lead who replies, books a
 * meeting, unsubscribes or bounces (STOP_FACTS); an auto-reply (out of office) does not stop it.
 */

/** What a step of a sequence is: the first email, a follow-up, or the last (breakup) email. */
export type StepKind = 'first' | 'follow_up' | 'breakup';

export interface SequenceStep {
  readonly kind: StepKind;
  /** Days after the previous step (0 for the first email). */
  readonly delayDays: number;
}

export interface OutreachTemplate {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly steps: readonly SequenceStep[];
  /** New leads the campaign starts on each sending day (follow-ups come on top). */
  readonly newLeadsPerDay: number;
}

/** Inbound facts that end a lead's sequence. */
export const STOP_FACTS = ['replied', 'meeting_booked', 'unsubscribed', 'bounced'] as const;
export type StopFact = (typeof STOP_FACTS)[number];

const step = (kind: StepKind, delayDays: number): SequenceStep => ({ kind, delayDays });

export const TEMPLATES: readonly OutreachTemplate[] = [
  {
    name: 'sales_outreach',
    title: 'Sales outreach',
    description: 'Books discovery calls with prospects: a first email, two follow-ups and a polite break-up.',
    steps: [step('first', 0), step('follow_up', 3), step('follow_up', 4), step('breakup', 7)],
    newLeadsPerDay: 25,
  },
  {
    name: 'partnerships',
    title: 'Partnerships',
    description: 'Opens integration, reseller or co-marketing conversations: a first email and two follow-ups a week apart.',
    steps: [step('first', 0), step('follow_up', 5), step('breakup', 7)],
    newLeadsPerDay: 15,
  },
  {
    name: 'recruiting',
    title: 'Recruiting',
    description: 'Reaches candidates for an open role: a first email and two short follow-ups.',
    steps: [step('first', 0), step('follow_up', 4), step('breakup', 6)],
    newLeadsPerDay: 20,
  },
  {
    name: 'fundraising',
    title: 'Fundraising',
    description: 'Introduces the company to investors: a first email and one follow-up a week later.',
    steps: [step('first', 0), step('follow_up', 7)],
    newLeadsPerDay: 10,
  },
  {
    name: 'customer_feedback',
    title: 'Customer feedback',
    description: 'Asks customers or users for a short feedback call: a first email and one reminder.',
    steps: [step('first', 0), step('follow_up', 5)],
    newLeadsPerDay: 30,
  },
];

export const TEMPLATE_NAMES: readonly string[] = TEMPLATES.map((t) => t.name);

export function findTemplate(name: string): OutreachTemplate | undefined {
  return TEMPLATES.find((t) => t.name === name);
}
