/**
 * What the writers need to write one email of a sequence, and what they return. The outreach
 * template registry produces the input for each step; EmailWriter (email-writer.ts) chooses the
 * writer: the account's LLM when it has a key, otherwise the built-in one.
 *
 * Every text field may be missing (null) or messy (user-typed, scraped): writers must cope.
 */
import type { StepKind } from '../campaigns/model/templates';

export type { StepKind };

export interface WriteEmailInput {
  /** The outreach template's name; picks the voice (sales, partnerships, recruiting, fundraising, else generic). */
  readonly mcp: string;
  readonly step: {
    /** 0 for the first email of the sequence. */
    readonly index: number;
    readonly kind: StepKind;
    /** Days since the previous step was sent (0 for the first email). */
    readonly delayDays: number;
    /**
     * What the campaign's sequence asks of this step (an ai step's instructions, or a preset's).
     * The account's LLM follows them; the built-in writer writes the step's kind from the facts.
     */
    readonly instructions?: string | null;
  };
  /** Subject of the previous email to this lead, for a follow-up's "Re: ...". */
  readonly previousSubject?: string | null;
  /**
   * The subject the email will carry when the sequence decides it (a subject template, or "Re: ..."
   * of the thread it replies in): the writer then writes the body only and returns this subject.
   */
  readonly subject?: string | null;
  /** The recipient. `email` seeds the built-in writer's choice of phrasing. */
  readonly lead: {
    readonly email: string;
    readonly firstName: string | null;
    readonly lastName: string | null;
    readonly title: string | null;
    readonly company: string | null;
    readonly industry: string | null;
    readonly city: string | null;
    /** The lead's profile (src/leads/profile): department id and seniority level read from its title. */
    readonly department?: string | null;
    readonly seniority?: string | null;
  };
  /**
   * The scraped site of the campaign's target_url / brandUrl: the company the emails speak for
   * (what the sender offers, hires for, raises for or partners with). Null when not scraped.
   */
  readonly company: {
    readonly name: string | null;
    readonly domain: string | null;
    readonly description: string | null;
    readonly industryKeywords: readonly string[];
  } | null;
  readonly campaign: {
    readonly name: string | null;
    readonly targetAudience: string | null;
    readonly targetOutcome: string | null;
    readonly valueForTarget: string | null;
    /** The person who writes (a mailbox's or the account's sender name); null when only the company is known. */
    readonly senderName: string | null;
    /** https link where the recipient books a meeting; linked in the HTML part. */
    readonly calendarLink: string | null;
    /** The campaign's target_url / brandUrl: names the company when its site could not be scraped. */
    readonly targetUrl?: string | null;
  };
}

export type WriterName = 'builtin' | 'openai' | 'anthropic';

/**
 * One email, ready for the sender, which adds the tracking pixel, tracked links and the
 * unsubscribe footer. `html` is a fragment (no <html> or <body>) that says exactly what `text` says.
 */
export interface WrittenEmail {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  readonly writer: WriterName;
  /** The LLM model that wrote it; absent for the built-in writer. */
  readonly model?: string;
}
