import { Type } from '@sinclair/typebox';
import { SENDER_NAME_MAX_LENGTH } from '../../../accounts/default-sender';
import { Timestamp } from '../../http/common-schemas';
import { SenderNameInput, SignatureInput } from '../default-sender/schemas';

const Hostname = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: '^(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$',
});

// The pace of a mailbox, the same bounds on create and on change (a change has no defaults).
const DAILY_CAP = { minimum: 1, maximum: 10_000, description: 'Emails per UTC day, at most.' };
const MIN_GAP_SECONDS = { minimum: 0, maximum: 86_400, description: 'Seconds between two sends, at least.' };

export const CreateMailboxBody = Type.Object(
  {
    fromEmail: Type.String({ format: 'email', maxLength: 254, description: 'The From address; also the SMTP envelope sender.' }),
    fromName: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: SENDER_NAME_MAX_LENGTH,
        description:
          `Display name shown with the From address: at most ${SENDER_NAME_MAX_LENGTH} characters, one line, without <, >, " or @ (it must never ` +
          'look like an address); stored trimmed. A blank name is taken as none, as it always showed.',
      }),
    ),
    signature: Type.Optional(SignatureInput('Plain text added under every email sent from this mailbox:')),
    smtpUrl: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: '`smtp://user:password@host:port` (STARTTLS required) or `smtps://user:password@host:port` (TLS). User and password are percent-encoded.',
    }),
    dailyCap: Type.Optional(Type.Integer({ ...DAILY_CAP, default: 50 })),
    minGapSeconds: Type.Optional(Type.Integer({ ...MIN_GAP_SECONDS, default: 60 })),
    dkim: Type.Optional(
      Type.Object(
        {
          domain: Hostname,
          selector: Type.String({ minLength: 1, maxLength: 63, pattern: '^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$' }),
          privateKey: Type.String({ minLength: 1, maxLength: 20_000, description: 'RSA private key, PEM (PKCS#1 or PKCS#8), at least 1024 bits.' }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const MailboxSchema = Type.Object(
  {
    id: Type.String(),
    fromEmail: Type.String(),
    fromName: Type.Union([Type.String(), Type.Null()]),
    signature: Type.Union([Type.String(), Type.Null()], { description: 'Plain text added under every email sent from this mailbox; null: none.' }),
    smtp: Type.Object(
      {
        host: Type.String(),
        port: Type.Integer(),
        secure: Type.Boolean({ description: 'true for smtps:// (TLS from the start), false for smtp:// (STARTTLS).' }),
        user: Type.Union([Type.String(), Type.Null()]),
      },
      { additionalProperties: false, description: 'The server; the password is never returned.' },
    ),
    dailyCap: Type.Integer(),
    minGapSeconds: Type.Integer(),
    dkim: Type.Union([Type.Object({ domain: Type.String(), selector: Type.String() }, { additionalProperties: false }), Type.Null()], {
      description: 'The signing domain and selector; the key is never returned.',
    }),
    active: Type.Boolean(),
    sentToday: Type.Integer({ minimum: 0, description: 'Emails sent through it this UTC day.' }),
    lastSentAt: Type.Union([Timestamp, Type.Null()]),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

export const MailboxList = Type.Object({ mailboxes: Type.Array(MailboxSchema) }, { additionalProperties: false });

export const MailboxParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

export const UpdateMailboxBody = Type.Object(
  {
    fromName: Type.Optional(SenderNameInput('Display name shown with the From address:')),
    signature: Type.Optional(SignatureInput('Plain text added under every email sent from this mailbox:')),
    dailyCap: Type.Optional(Type.Integer(DAILY_CAP)),
    minGapSeconds: Type.Optional(Type.Integer(MIN_GAP_SECONDS)),
  },
  { additionalProperties: false, description: 'At least one member. A member left out keeps its value.' },
);
