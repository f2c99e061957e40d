import type { Category } from '../../categories';

/**
 * Whole replies of a word or two ("yes", "no thanks", "👍"), matched after folding and trimming
 * punctuation. They answer the question of the email they reply to, which for outreach is "worth
 * a chat?": a bare "yes" is interest, "ok" or "thanks" an acknowledgement.
 */
const SHORT: Readonly<Record<Exclude<Category, 'meeting_booked' | 'closed' | 'out_of_office'>, readonly string[]>> = {
  interested: [
    'yes', 'yes please', 'yeah', 'yep', 'yup', 'sure', 'sure thing', 'absolutely', 'definitely', 'of course', 'interested', "i'm interested",
    'sounds good', 'sounds great', 'tell me more', '👍', '👌', '🙌', '✅', '🤝', 'oui', 'ja', 'ja gerne', 'gerne', 'si', 'sim', 'claro', 'certo',
    'certamente', 'volontiers', 'ja graag', 'graag',
  ],
  not_interested: [
    'no', 'nope', 'nah', 'no thanks', 'no thank you', 'not interested', 'pass', 'non', 'nein', 'nee', 'nao', 'no gracias', 'non merci',
    'nein danke', 'nee bedankt', 'no grazie', 'nao obrigado', 'nao obrigada', '👎',
  ],
  neutral: [
    'ok', 'okay', 'k', 'thanks', 'thank you', 'thx', 'ty', 'noted', 'received', 'got it', '?', 'hmm', 'merci', 'danke', 'gracias', 'obrigado',
    'obrigada', 'grazie', 'bedankt', 'dank je',
  ],
  unsubscribe: ['stop', 'please stop', 'stop please', 'stop it', 'please remove', 'remove please', 'remove me please', 'remove', 'unsubscribe', 'opt out', 'optout', 'remove me', 'stopp', 'desabonner', 'afmelden', 'baja'],
};

const LOOKUP = new Map<string, Category>(Object.entries(SHORT).flatMap(([category, words]) => words.map((w) => [w, category as Category] as const)));

/** The category of a one- or two-word reply, or undefined when the reply is longer or unknown. */
export function shortReplyCategory(folded: string): Category | undefined {
  const key = folded
    .replace(/(?:[\u{1F3FB}-\u{1F3FF}]|\uFE0F)/gu, '') // skin tones and emoji variation selectors
    .replace(/[.!,;:\s]+/g, ' ')
    .trim();
  if (key.length > 20) return undefined;
  return LOOKUP.get(key) ?? (/^\?+$/.test(key) ? 'neutral' : undefined);
}
