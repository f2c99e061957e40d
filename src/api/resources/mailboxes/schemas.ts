import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/common-schemas';

const Hostname = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: '^(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$',
});

export const CreateMailboxBody = Type.Object(
  {
    fromEmail: Type.String({ format: 'email', maxLength: 254, description: 'The From address; also the SMTP envelope sender.' }),
    fromName: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Display name shown with the From address.' })),
    smtpUrl: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: '`smtp://user:password@host:port` (STARTTLS required) or `smtps://user:password@host:port` (TLS). User and password are percent-encoded.',
    }),
    dailyCap: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 50, description: 'Emails per UTC day, at most.' })),
    minGapSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400, default: 60, description: 'Seconds between two sends, at least.' })),
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
