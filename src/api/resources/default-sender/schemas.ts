import { Type } from '@sinclair/typebox';
import { SENDER_NAME_MAX_LENGTH, SIGNATURE_MAX_LENGTH, SIGNATURE_MAX_LINES } from '../../../accounts/default-sender';
import { NOT_BLANK } from '../../http/common-schemas';

/*
 * The schemas carry what JSON Schema can say (type, length, not blank); line breaks, the characters
 * of an address and the line count are checked by src/accounts/default-sender.ts, which answers a
 * 400 naming the member. Mailboxes (fromName, signature) use the same two definitions.
 */

export const SENDER_NAME_RULES =
  `1 to ${SENDER_NAME_MAX_LENGTH} characters, not blank, one line, without <, >, " or @ (it is the display name of the From header and ` +
  'must never look like an address); stored trimmed.';

export const SIGNATURE_RULES =
  `Plain text, at most ${SIGNATURE_MAX_LENGTH} characters and ${SIGNATURE_MAX_LINES} lines. Line endings are stored as \\n, trailing spaces ` +
  'of each line and blank lines at either end are cut; blank means none.';

/** A sender name in a request: a string, or null to clear it. `what` says whose name it is. */
export const SenderNameInput = (what: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: SENDER_NAME_MAX_LENGTH, pattern: NOT_BLANK, description: `${what} ${SENDER_NAME_RULES} Null clears it.` });

/** A signature in a request: a string, or null (or blank) for none. */
export const SignatureInput = (what: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: SIGNATURE_MAX_LENGTH, description: `${what} ${SIGNATURE_RULES} Null clears it.` });

export const DefaultSenderResponse = Type.Object(
  {
    name: Type.Union([Type.String(), Type.Null()], {
      description: 'The From name of emails sent without a mailbox. Null: none set, and emails name the campaign\'s company ("The Acme team").',
    }),
    signature: Type.Union([Type.String(), Type.Null()], { description: 'Plain text added under those emails. Null: none.' }),
  },
  { additionalProperties: false },
);

export const DefaultSenderPatch = Type.Object(
  {
    name: Type.Optional(SenderNameInput('The From name of emails sent without a mailbox:')),
    signature: Type.Optional(SignatureInput('The signature of emails sent without a mailbox:')),
  },
  { additionalProperties: false, description: 'At least one member. A member left out keeps its value.' },
);
