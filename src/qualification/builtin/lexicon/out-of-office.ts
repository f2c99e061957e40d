import { cues } from './cue';

/** Absence notices, automatic or written by hand. Subject lines are scored with SUBJECT_CUES. */
export const OUT_OF_OFFICE_CUES = cues('out_of_office', [
  // English
  [4, /\bout of (the )?office\b|\booo\b|\bout of the country\b/],
  [4, /\bon (annual |paid |sick |parental |maternity |paternity |medical |study |extended |garden )?(vacation|holidays?|leave|sabbatical)\b/],
  [4, /\b(out|off) sick\b|\bon sick leave\b/],
  [3, /\b(limited|no|intermittent|restricted|sporadic|little) access to (my )?(e-?mails?|the internet|internet)\b/],
  [3.5, /\baway (from (the|my) (office|desk)|on business|until|till|through|from \d)/],
  [2.5, /\b(will|i'?ll|shall|we'?ll|we will) (be )?(back|return)\b/],
  [3, /\bback (in the office|in office|on (mon|tues|wednes|thurs|fri|satur|sun)day|(mon|tues|wednes|thurs|fri|satur|sun)day)\b/],
  [2, /\breturning\b/],
  [2.5, /\b(upon|on|after) my return\b|\bwhen i (return|get back|am back)\b|\b(when|after|once) i'?m back\b/],
  [3, /\b(automatic|auto)[- ]?(reply|response|responder)\b|\bautoreply\b/],
  [3, /\bmailbox is not (being )?monitored\b|\boffices? (are|is|will be) closed\b|\bwhen we reopen\b/],
  [1.5, /\btravel(l)?ing\b/],
  [3, /\b(i'?m|i am|we'?re|we are|i'?ll be|i will be) (currently |now |mostly )?(off|away|offline|unavailable|out|travel(l)?ing|abroad)\b(?! (of|to|from the point))/],
  [3, /\b(limited|no|patchy|spotty|intermittent|poor) (connectivity|signal|reception|internet|wi-?fi|e-?mail access)\b|\bpatchy e-?mail\b/],
  [3, /\b(is|are|am|'m|'re) away\b|\bstepped away\b/],
  [2.5, /\bfor the holidays\b|\bholiday (closure|break|shutdown)\b|\bon a (flight|plane)\b|\bback online\b/],
  [2.5, /\battending (a |an |the )?(conference|trade ?(fair|show)|event|summit|offsite|off-site|training|workshop)\b|\bat a trade fair\b/],
  // "until <date>" / "back on <date>": a date that ends something, the mark of an absence notice.
  [2, /\b(until|till|back on|back|returning( on)?)\s+(the\s+)?((mon|tues|wednes|thurs|fri|satur|sun)day|\d{1,2}(st|nd|rd|th)?\b|(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|(after )?the new year|mid-\w+|next (week|month))/],
  [2.5, /\bat a (conference|trade ?show|offsite|off-site|summit)\b/],
  // French
  [3, /\babsente?s?\b/],
  [4, /\ben (conges?|vacances)\b|\bhors du bureau\b/],
  [3, /\bde retour (le|au|a partir|des|lundi|mardi|mercredi|jeudi|vendredi)\b|\ba mon retour\b|\bdes mon retour\b/],
  [3.5, /\breponse automatique\b/],
  [3, /\ben deplacement\b|\bindisponible\b|\ben formation\b/],
  [4, /\ben arret (maladie|de travail)\b|\ben conge (maternite|paternite|parental)\b/],
  [2, /\bjusqu'?(au|a|a la)? (\d{1,2}|lundi|mardi|mercredi|jeudi|vendredi|fin)\b/],
  // German
  [4, /\babwesen(d|heit)\w*/],
  [4, /\bnicht im (buro|haus|office)\b/],
  [3.5, /\burlaub\b|\belternzeit\b|\bkrankgeschrieben\b|\bdienstreise\b/],
  [3, /\bwieder (im buro|erreichbar|da|zuruck|im haus)\b|\bzuruck am\b|\bzuruck ab\b/],
  [3.5, /\bautomatische antwort\b/],
  [4, /\bausser haus\b|\bim krankenstand\b|\b(auf )?geschaftsreise\b/],
  [3, /\bkeinen zugriff auf\b|\bnicht erreichbar\b|\beingeschrankt erreichbar\b/],
  [2, /\bbis (zum |einschliesslich )?(\d{1,2}\.|montag|dienstag|mittwoch|donnerstag|freitag|ende)/],
  // Spanish
  [4, /\bfuera de (la )?oficina\b|\bde vacaciones\b/],
  [3, /\ba mi (regreso|vuelta)\b|\bestare de vuelta\b|\bvuelvo el\b|\bregreso el\b/],
  [3.5, /\brespuesta automatica\b/],
  [3, /\bausentes?\b/],
  [2.5, /\bde viaje\b/],
  [3, /\bestoy de baja\b|\bde baja (medica|por)\b|\bsin acceso al correo\b|\bno estare disponible\b|\bestoy fuera\b/],
  [2, /\bhasta (el |el dia )?(\d{1,2}|lunes|martes|miercoles|jueves|viernes)\b/],
  // Portuguese
  [4, /\bfora do escritorio\b|\bde ferias\b/],
  [3.5, /\bresposta automatica\b/],
  [3, /\bretorno (no dia|em|a partir)\b|\bestarei de volta\b|\bao meu retorno\b|\bquando (eu )?(voltar|retornar)\b/],
  [3.5, /\blicenca (maternidade|paternidade|medica)\b|\bde licenca\b/],
  [3, /\bsem acesso ao (e-?mail|correio)\b|\bestou fora\b|\bnao estarei disponivel\b/],
  [2, /\bate (o )?(dia )?(\d{1,2}|segunda|terca|quarta|quinta|sexta)\b/],
  // Italian
  [4, /\bfuori (ufficio|sede)\b|\bin ferie\b/],
  [3.5, /\brisposta automatica\b/],
  [3, /\bal mio rientro\b|\brientrero\b|\bsaro di nuovo in ufficio\b|\bdi ritorno\b/],
  [3, /\bassente\b/],
  [3.5, /\bin (maternita|malattia|trasferta)\b/],
  [3, /\bsenza accesso (alla posta|all'e-?mail)\b|\bnon saro raggiungibile\b/],
  [2, /\bfino (al|a) (\d{1,2}|lunedi|martedi|mercoledi|giovedi|venerdi)\b/],
  // Dutch
  [4, /\bafwezig(heid)?\b|\bniet op kantoor\b/],
  [4, /\b(met|op) vakantie\b/],
  [3.5, /\bautomatisch antwoord\b/],
  [3, /\bweer (bereikbaar|aanwezig|op kantoor|terug)\b|\bben (ik )?(weer )?terug\b|\bterug op\b/],
  [3, /\bverlof\b|\bziek\b/],
  [4, /\bniet aanwezig\b/],
  [3, /\bniet bereikbaar\b|\bbeperkt bereikbaar\b/],
  [2, /\btot (en met )?(\d{1,2}|maandag|dinsdag|woensdag|donderdag|vrijdag)\b/],
]);

/**
 * "No longer with the company" notices are auto-replies too, but not absences: the person will
 * not come back, so they are neutral (contact whoever is named instead), and beat the cues above.
 */
export const LEFT_COMPANY_CUES = cues('neutral', [
  [4, /\bno longer (works?|working|employed|with|at|part of)\b/, { tag: 'left_company' }],
  [4, /\b(has |have )?left (the|our) (company|organi[sz]ation|firm|team)\b|\bleft [a-z]+ in (january|february|march|april|may|june|july|august|september|october|november|december)\b/, { tag: 'left_company' }],
  [4, /\bnicht mehr (\w+ ){0,3}(tatig|beschaftigt)\b/, { tag: 'left_company' }],
  [4, /\bne fait plus partie\b|\bn'est plus (en poste|chez|dans)\b/, { tag: 'left_company' }],
  [4, /\bya no (trabaja|forma parte)\b|\bja nao trabalha\b|\bnao (trabalha|faz parte) mais\b/, { tag: 'left_company' }],
  [4, /\bnon (lavora|fa) piu\b|\bniet meer (werkzaam|in dienst)\b/, { tag: 'left_company' }],
]);

/** Subject lines of auto-replies in the languages covered. */
export const SUBJECT_CUES = cues('out_of_office', [
  [3, /\b(automatic|auto)[- ]?(reply|response)\b|\bautoreply\b|\bout of (the )?office\b|\booo\b/],
  [3, /\babwesen\w*|\bautomatische antwort\b|\breponse automatique\b|\brespuesta automatica\b|\bresposta automatica\b|\brisposta automatica\b|\bautomatisch antwoord\b/],
  [2, /\b(holiday|vacation|absence|abwesend|vacances|vacaciones|ferias|ferie|vakantie)\b/],
]);
