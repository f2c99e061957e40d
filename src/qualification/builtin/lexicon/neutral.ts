import { cues } from './cue';

/**
 * Neither a yes nor a no: referrals and forwards (tag 'referral'), acknowledgements, "let me
 * think", and questions about who is writing. A referral is neutral even when polite: the person
 * who answered will not buy, someone else might.
 */
export const NEUTRAL_CUES = cues('neutral', [
  // Referral and forwarding, English
  [4, /\b(not|n'?t) (the )?(right|best|correct|appropriate|relevant) (person|contact|people)\b|\bwrong (person|contact)\b/, { tag: 'referral' }],
  [4, /\bnot my (area|department|call|decision|responsibility|remit|field)\b/, { tag: 'referral' }],
  [2.5, /\b(try|contact|ask|reach out to|talk to|speak (to|with)|get in touch with|write to|have to talk to|should talk to)( reaching out to| contacting| emailing)? (our|my|the|them|him|her|[a-z0-9._-]+@)/, { onNegation: null, tag: 'referral' }],
  [3, /(?<!looking |look )\bforward(ing|ed)?\b( (this|it|your (e-?mail|message|note)))?( (on|along))? to\b|\bforwarded\b/, { onNegation: null, tag: 'referral' }],
  [3.5, /\bse lo paso a\b|\ble paso\b|\bno llevo yo\b/, { tag: 'referral' }],
  [4, /\b(colleague|boss|manager|cofounder|co-founder|ceo|cto|cfo)\b.{0,40}\b(might|may|could|would) be (interested|the (right|better) person|a better (fit|contact))\b/, { tag: 'referral' }],
  [3, /\bloop(ing|ed)? (in|[a-z]+ in)\b|\bcc'?(d|ed|ing)?\b|\bcopying\b/, { onNegation: null, tag: 'referral' }],
  [3, /\bpass(ing)? (this|it) (along|on)\b/, { onNegation: null, tag: 'referral' }],
  [2, /\b(who|she|he|they|that) (handles|owns|runs|manages|decides on|is responsible for|is in charge of)\b|\bhandled by\b|\bin charge of\b|\bmakes these (calls|decisions)\b|\bdecides on\b/, { tag: 'referral' }],
  [3, /\b(i'?m|i am) in (finance|hr|legal|sales|marketing|it|engineering|support|operations|ops|accounting)\b|\byou (probably |might )?want (someone|somebody)\b/, { tag: 'referral' }],
  [2.5, /\bask around\b|\blet you know\b|\bhave a look later\b|\bwill (have a )?look (at it )?later\b|\bwhen i (get|have) (a chance|time)\b|\bclarify\b/],
  [3, /\bstudent\b|\bintern\b|\bnot a decision[- ]maker\b|\bno say\b|\bno authority\b/, { tag: 'referral' }],
  [3, /\b(please )?use my (work |new |personal |other )?(e-?mail|address)\b|\bnew (e-?mail )?address\b/, { tag: 'referral' }],
  [1, /\bagency\b/, { tag: 'referral' }],
  [3.5, /\bbetter (placed|suited|person|contact) to\b|\bbetter person\b/, { tag: 'referral' }],
  [3, /\b(send|pass|hand|bump)(ing)? (this|it) (over|along|on) to\b/, { onNegation: null, tag: 'referral' }],
  [2.5, /\badding\b|\blooks after\b|\btakes care of\b/, { tag: 'referral' }],
  [3, /\bi'?m (just|only) (the|an?) \w+/, { tag: 'referral' }],
  [3, /\bhow did you (find|get|hear about|come across)\b/, { tag: 'question' }],
  [1.5, /\bappreciate (it|that|the note|your note|the email)\b/],
  [2.5, /\b(let me|i'?ll) (see|check|ask|find out|run it by|talk to (my|the) team)\b/],
  // Referral and forwarding, other languages
  [4, /\bpas la bonne personne\b|\bcontactez plutot\b|\bje (vous )?transmets\b|\bje fais suivre\b|\bje transfere\b/, { tag: 'referral' }],
  [4, /\bnicht zustandig\b|\bwenden sie sich (bitte )?an\b/, { tag: 'referral' }],
  [3.5, /\bweitergeleitet\b|\bweiterleiten\b|\bleite\b.{0,40}\bweiter\b/, { onNegation: null, tag: 'referral' }],
  [4, /\bno soy la persona (indicada|adecuada|correcta)\b|\ble reenvio\b|\breenvi(o|are)\b/, { tag: 'referral' }],
  [4, /\bnao sou (eu|a pessoa)\b|\bfale com\b|\bencaminh\w*|\brepassa\w*/, { tag: 'referral' }],
  [4, /\bnon sono la persona (giusta|adatta)\b|\bgiro la (mail|e-mail)\b|\binoltr\w*|\bnon mi occupo (io )?di\b|\bscriv(i|ete) a\b/, { tag: 'referral' }],
  [4, /\bniet de juiste persoon\b|\bmail (even )?naar\b|\bstuur (ik|het) door\b/, { tag: 'referral' }],
  [4, /\bdoorgestuurd\b|\bdoorsturen\b/, { onNegation: null, tag: 'referral' }],
  // Acknowledgement, undecided, who-are-you
  [2, /\breceived\b|\bnoted\b|\bgot it\b/],
  [2.5, /\blet me think\b|\bthink about it\b|\b(get|circle|come) back to you\b|\bcircle back\b|\bcheck with (my|the|our) (team|boss|manager|partner|colleagues?|cofounder)\b|\bdiscuss (it |this )?with\b|\bfind out\b|\bi'?ll review\b/],
  [1.5, /\bmaybe\b|\bperhaps\b|\bnot sure\b/],
  [3, /\bwho (are you|is this|gave you)\b|\bhow did you get (my|this)\b|\bwhat (company|is this|was this)\b|\bremind me what\b|\bis this (an? )?(automated|automatic|bot|real)\b|\bdid you mean to send\b|\bwhich tool\b/, { tag: 'question' }],
  [3, /\bwho'?s this\b|\bwhere (did )?you get my\b|\bis this (a|an) (sales|marketing|cold|automated|mass|real)\b|\bqui etes-vous\b|\bwer sind sie\b|\bquien (es usted|eres)\b|\bde que empresa\b|\bquem (e|eh) (voce|vc)\b|\bchi (e|sei|siete)\b|\bwie (ben|bent) (je|jij|u)\b|\bvan welk bedrijf\b/, { tag: 'question' }],
  [2.5, /\bformatting is broken\b|\bsend (this|it) again\b/],
  [2.5, /\bis this (even )?(meant )?for (companies|teams|businesses|us)\b/, { tag: 'question' }],
  [2.5, /\by reflechir\b|\bich melde mich\b|\blo pensare\b|\bvou pensar\b|\bci pens(o|ero)\b|\bdenk erover na\b/],
  [3, /\blo (comento|hablo|consulto|reviso) con\b|\bte digo algo\b|\bte (aviso|comento)\b/],
]);
