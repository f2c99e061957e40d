/**
 * Negation scope, kept deliberately simple: a cue is negated when an odd number of negators stand
 * among the few words before it in the same clause ("not interested", "kein Interesse", "no nos
 * interesa"), or when a trailing negator follows it closely, as French, German and Dutch put it
 * ("ne m'intéresse pas", "interessiert uns nicht"). Two negators cancel out ("wouldn't say no to a
 * demo"). Commas, sentence ends, "and" and "but" close a clause: "No, interested!" and "not
 * interested and please stop emailing" leave the second part alone.
 */
const NEGATORS = new Set([
  // English
  'not', 'no', 'never', 'nor', 'hardly', 'without', 'cannot', 'dont', 'doesnt', 'isnt', 'arent', 'wasnt', 'werent', 'cant', 'wont', 'wouldnt',
  'couldnt', 'shouldnt', 'didnt', 'havent', 'hasnt', 'aint',
  // French, German, Spanish, Portuguese, Italian, Dutch
  'ne', 'pas', 'jamais', 'sans', 'nicht', 'kein', 'keine', 'keinen', 'keiner', 'keinem', 'nie', 'niemals', 'ohne', 'nunca', 'sin', 'ni', 'nao',
  'sem', 'non', 'mai', 'senza', 'niet', 'geen', 'nooit', 'zonder',
]);

/** Negators that follow what they negate. */
const TRAILING_NEGATORS = new Set(['pas', 'nicht', 'niet']);

const CLAUSE_BREAK = /[,.;:!?()\n\u2014]|\s-\s|\b(and|but|however|though|et|und|mais|aber|pero|maar)\b/g;
const WINDOW_BEFORE = 5;
const WINDOW_AFTER = 2;

function isNegator(token: string): boolean {
  const t = token.replace(/^['"]+|['"]+$/g, '');
  if (NEGATORS.has(t.replace(/'/g, ''))) return true;
  // "n'est", "n'ai": the French elided "ne".
  return /^n'/.test(t) || /n't$/.test(t);
}

function lastClause(text: string): string {
  let cut = 0;
  for (const m of text.matchAll(CLAUSE_BREAK)) cut = m.index + m[0].length;
  return text.slice(cut);
}

function firstClause(text: string): string {
  CLAUSE_BREAK.lastIndex = 0;
  const m = CLAUSE_BREAK.exec(text);
  CLAUSE_BREAK.lastIndex = 0;
  return m ? text.slice(0, m.index) : text;
}

const tokens = (s: string): string[] => s.split(/\s+/).filter((t) => t !== '');

/** Whether the match at [start, end) of the folded text is negated. */
export function isNegated(folded: string, start: number, end: number): boolean {
  const before = tokens(lastClause(folded.slice(Math.max(0, start - 80), start))).slice(-WINDOW_BEFORE);
  let count = before.filter(isNegator).length;
  const after = tokens(firstClause(folded.slice(end, end + 40))).slice(0, WINDOW_AFTER);
  // French "ne ... pas" is one negation in two words: the trailing part counts only without the leading one.
  const frenchLead = before.some((t) => t === 'ne' || t.startsWith("n'"));
  if (!frenchLead && after.some((t) => TRAILING_NEGATORS.has(t))) count += 1;
  // The matched phrase itself may carry a negator ("n'interesse"), which the cue already accounts for.
  return count % 2 === 1;
}
