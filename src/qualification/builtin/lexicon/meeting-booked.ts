import { cues } from './cue';

const DAY = '(mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|next week';

/**
 * A meeting that is agreed: booked, invited, accepted. Only declarative sentences count ("Have you
 * booked?" books nothing). Accepting a proposed time ("Tuesday at 3 works") is scored structurally
 * in scoring.ts, since it needs a time expression next to the acceptance.
 */
export const MEETING_BOOKED_CUES = cues('meeting_booked', [
  // English
  [3.5, /\b(booked|scheduled)\b/, { onNegation: null, declarativeOnly: true }],
  [3.5, /\b(grabbed|picked|took|reserved|blocked|chose)( out)? (a |the |an )?(slot|time|spot|meeting|\d+ ?(min|minutes))\b/, { onNegation: null, declarativeOnly: true }],
  [3.5, /\bblocked\b.{0,40}\bfor us\b/, { onNegation: null, declarativeOnly: true }],
  [4, /\b(invite|invitation)s? (accepted|sent)\b|\baccepted (it|the invite|your invite|the invitation|your invitation|the meeting)\b/, { onNegation: null, declarativeOnly: true }],
  [3.5, /\b(i'?ve |i have |just )?sent (you )?(a |an |the )?(calendar |meeting |teams |zoom |google meet )?(invite|invitation)\b/, { onNegation: null, declarativeOnly: true }],
  [3.5, new RegExp(`\\bsee you (then|there|on (${DAY}|zoom|teams|the)|at \\d|${DAY})`), { declarativeOnly: true }],
  [3, /\b(talk|speak) (to you |with you )?then\b|\btalk to you (on|at) /, { declarativeOnly: true }],
  [3.5, /\b(in|on|into) (my|the|our) (calendars?|diary|agenda|kalender|calendrier|calendario)\b/, { onNegation: null, declarativeOnly: true }],
  [4, /\b(accept\w*|acept\w*|aceit\w*|accett\w*|angenommen|geaccepteerd)\b.{0,20}\b(invit\w*|convite|einladung|uitnodiging)\b|\b(invit\w*|convite|einladung|uitnodiging)\b.{0,20}\b(accept\w*|acept\w*|aceit\w*|accett\w*|angenommen|geaccepteerd)\b/, { onNegation: null, declarativeOnly: true }],
  [3.5, /\ball set for\b|\bput (us|me|you|it) down for\b|\binvite('s| is) on (its|the) way\b|\bit'?s a date\b/, { declarativeOnly: true }],
  [3, /\b(saw|got|received) (the|your) (calendar )?(invite|invitation)\b|\bi'?ll be there\b|\bsending (you )?the (zoom|teams|meet|meeting|call|dial-in) (link|details)\b/, { onNegation: null, declarativeOnly: true }],
  [3, /^accepted\b/, { declarativeOnly: true }],
  [3, /\blooking forward to (our|the) (call|meeting|chat|demo|conversation)\b/, { declarativeOnly: true }],
  [3, new RegExp(`\\b(talk|speak|chat) (on |to you on |with you on )?(${DAY})\\b`), { declarativeOnly: true }],
  [3.5, /\blocked in\b|\bconfirmed (for|at)\b|\bmeeting (is )?confirmed\b|\b(it'?s|that'?s|we'?re) confirmed\b/, { onNegation: null, declarativeOnly: true }],
  // French
  [3.5, /\bc'est note\b|\b(rendez-vous|rdv|reunion) (est )?(confirme|pris|fixe|reserve|cale)\b|\bj'ai (reserve|pris|bloque) (un|le) (creneau|rendez-vous)\b|\binvitation acceptee\b/, { declarativeOnly: true }],
  [2.5, /\ba (lundi|mardi|mercredi|jeudi|vendredi|demain)\b/, { declarativeOnly: true }],
  // German
  [3.5, /\b(ist )?eingetragen\b|\b(termin|meeting|gesprach|call) (ist )?(gebucht|bestatigt|fixiert|steht)\b|\beinladung (angenommen|verschickt|geschickt)\b/, { onNegation: null, declarativeOnly: true }],
  [3, /\bgebucht\b/, { onNegation: null, declarativeOnly: true }],
  [3, /\bbis (dann|montag|dienstag|mittwoch|donnerstag|freitag|morgen)\b/, { declarativeOnly: true }],
  // Spanish
  [3.5, /\bhe reservado\b|\bagende\b|\bagendad[oa]\b|\b(invitacion|cita|reunion|llamada) (aceptada|confirmada|agendada)\b/, { onNegation: null, declarativeOnly: true }],
  [3, /\bnos vemos\b|\bquedamos (el|en|a|para)\b/, { declarativeOnly: true }],
  // Portuguese
  [3.5, /\b(agendei|agendad[oa]|marquei|reservei)\b/, { onNegation: null, declarativeOnly: true }],
  [3, /\bcombinado\b|\bate la\b|\bmarcad[oa] para\b/, { declarativeOnly: true }],
  // Italian
  [3.5, /\bho prenotato\b|\b(appuntamento|riunione|call) (e )?(confermat[oa]|fissat[oa])\b/, { onNegation: null, declarativeOnly: true }],
  [3, /\bci vediamo\b|\ba (lunedi|martedi|mercoledi|giovedi|venerdi|domani)\b/, { declarativeOnly: true }],
  // Dutch
  [3.5, /\b(staat|zet|gezet|gezet) in (mijn|de|onze) agenda\b|\bingepland\b|\bgeboekt\b|\bafspraak (staat|is) (gepland|bevestigd|ingepland)\b/, { onNegation: null, declarativeOnly: true }],
  [3.5, /\bafgesproken\b/, { declarativeOnly: true }],
  [3, /\btot (dan|maandag|dinsdag|woensdag|donderdag|vrijdag|morgen)\b/, { declarativeOnly: true }],
]);
