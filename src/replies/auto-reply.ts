import type { InboundMessage } from './inbound-message';

// Subjects of out-of-office and other automatic answers, in the languages mail clients ship.
const AUTO_SUBJECT =
  /^\s*(out of (the )?office|automatic reply|auto(matic)?[- ]?(reply|response)|autoreply|away from (the )?office|abwesenheitsnotiz|automatische antwort|réponse automatique|absence du bureau|respuesta automática|fuera de la oficina|risposta automatica|fuori sede|resposta automática|automatisch antwoord|afwezig)\b/i;

/**
 * True for a message a machine sent in answer to ours (out of office, vacation notice, "this
 * address is no longer monitored"): RFC 3834 `Auto-Submitted` other than `no`, the vendor
 * headers (`X-Autoreply`, `X-Autorespond`, Exchange's `X-Auto-Response-Suppress`), `Precedence:
 * auto_reply|bulk|junk`, or a subject the usual clients put on such answers.
 */
export function isAutoReply(msg: InboundMessage): boolean {
  const submitted = msg.header('auto-submitted')?.trim().toLowerCase();
  if (submitted && !/^no\b/.test(submitted)) return true;
  if (msg.header('x-autoreply') !== null || msg.header('x-autorespond') !== null) return true;
  if (msg.header('x-auto-response-suppress') !== null) return true;
  const precedence = msg.header('precedence')?.trim().toLowerCase();
  if (precedence === 'auto_reply' || precedence === 'bulk' || precedence === 'junk') return true;
  return msg.subject !== null && AUTO_SUBJECT.test(msg.subject);
}
