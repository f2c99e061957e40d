/**
 * The outreach templates (`mcp` on Surface A, optional on Surface B): presets that supply a
 * campaign's default sequence (presetSequence in sequence.ts) and its pace (new leads a day). Pure
 * data, read by the API, which stores each campaign's sequence when it is created, so a change made
 * here reaches only campaigns created after it. The workflow reads this registry only for campaigns
 * created before sequences were stored (their input carries no SequencePlan): for them the steps'
 * delays and kinds must stay as they are.
 *
 * A sequence is a first email and its follow-ups. `delayDays` counts calendar days from the
 * previous step to this one; a step due on a day the campaign does not send (a weekend under
 * `weekdays`) leaves on the next sending day. Every sequence stops for a lead who replies, books a
 * meeting, unsubscribes or bounces (STOP_FACTS); an auto-reply (out of office) does not stop it.
 */

/** What a step of a sequence is: the first email, a follow-up, or the last (breakup) email. */
export type StepKind = 'first' | 'follow_up' | 'breakup';

export interface TemplateStep {
  readonly kind: StepKind;
  /** Days after the previous step (0 for the first email). */
  readonly delayDays: number;
  /**
   * What the writer is asked to write (the account's LLM reads it as it is; the built-in writer
   * writes the step's kind from the campaign's facts). Shown as the preset's steps by GET.
   */
  readonly instructions: string;
}

export interface OutreachTemplate {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly steps: readonly TemplateStep[];
  /** New leads the campaign starts on each sending day (follow-ups come on top). */
  readonly newLeadsPerDay: number;
}

/** Inbound facts that end a lead's sequence. */
export const STOP_FACTS = ['replied', 'meeting_booked', 'unsubscribed', 'bounced'] as const;
export type StopFact = (typeof STOP_FACTS)[number];

const step = (kind: StepKind, delayDays: number, instructions: string): TemplateStep => ({ kind, delayDays, instructions });

export const TEMPLATES: readonly OutreachTemplate[] = [
  {
    name: 'sales_outreach',
    title: 'Sales outreach',
    description: 'Books discovery calls with prospects: a first email, two follow-ups and a polite break-up.',
    steps: [
      step('first', 0, 'First email: who is writing and what they offer, why this lead (their role, company and place), and one clear ask for a short call.'),
      step('follow_up', 3, 'Follow-up in the same thread: the value again in one sentence, from another angle, and one easy question.'),
      step('follow_up', 4, 'Second follow-up in the same thread: offer a short written summary instead of a call, and ask whether it is worth a look.'),
      step('breakup', 7, 'Last email in the same thread: say this is the last note, leave the door open, no pressure.'),
    ],
    newLeadsPerDay: 25,
  },
  {
    name: 'partnerships',
    title: 'Partnerships',
    description: 'Opens integration, reseller or co-marketing conversations: a first email and two follow-ups a week apart.',
    steps: [
      step('first', 0, 'First email: who is writing and what they build, why a partnership with this lead\'s company makes sense, and one clear ask for a short call.'),
      step('follow_up', 5, 'Follow-up in the same thread: what each side would gain in one sentence, and one easy question.'),
      step('breakup', 7, 'Last email in the same thread: say this is the last note, leave the door open, no pressure.'),
    ],
    newLeadsPerDay: 15,
  },
  {
    name: 'recruiting',
    title: 'Recruiting',
    description: 'Reaches candidates for an open role: a first email and two short follow-ups.',
    steps: [
      step('first', 0, 'First email: the company and the role, why this person\'s experience fits, and one clear ask for a short confidential chat.'),
      step('follow_up', 4, 'Follow-up in the same thread: one more reason the role fits them, and an easy way to say yes or point to someone else.'),
      step('breakup', 6, 'Last email in the same thread: say this is the last note, leave the door open, no pressure.'),
    ],
    newLeadsPerDay: 20,
  },
  {
    name: 'fundraising',
    title: 'Fundraising',
    description: 'Introduces the company to investors: a first email and one follow-up a week later.',
    steps: [
      step('first', 0, 'First email: what the company does, why it fits this investor, and one clear ask for a short call.'),
      step('follow_up', 7, 'Follow-up in the same thread: offer the deck or a short update, and one easy question.'),
    ],
    newLeadsPerDay: 10,
  },
  {
    name: 'customer_feedback',
    title: 'Customer feedback',
    description: 'Asks customers or users for a short feedback call: a first email and one reminder.',
    steps: [
      step('first', 0, 'First email: ask for a short feedback call about their experience, say why their view matters, and make the ask easy.'),
      step('follow_up', 5, 'Follow-up in the same thread: a gentle reminder, and offer to take the feedback by email instead.'),
    ],
    newLeadsPerDay: 30,
  },
];

export const TEMPLATE_NAMES: readonly string[] = TEMPLATES.map((t) => t.name);

export function findTemplate(name: string): OutreachTemplate | undefined {
  return TEMPLATES.find((t) => t.name === name);
}
