import { Type } from '@sinclair/typebox';
import { MAX_REASON } from '../../../blocklist/blocklist-import';
import { BLOCKLIST_ITEM_TYPES, BLOCKLIST_SOURCES, SUPPRESSION_CAUSES } from '../../../blocklist/blocklist-repository';
import { Timestamp } from '../../http/common-schemas';
import { StringEnum } from '../string-enum';

/** Entries one POST /v1/blocklist may carry; larger lists go through the CSV import. */
export const MAX_ENTRIES_PER_CALL = 1000;

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const BlocklistItem = Type.Object(
  {
    id: Type.Union([Type.String(), Type.Null()], { description: "The entry's id, for DELETE; null for a suppression, which cannot be removed here." }),
    type: StringEnum(BLOCKLIST_ITEM_TYPES, { description: 'address or domain (a blocklist entry), or suppression (read-only).' }),
    value: Type.String({ description: 'The address or domain, lower case; a domain in punycode. A domain covers its subdomains.' }),
    reason: Nullable(Type.String({ description: "The user's note on the entry; null for suppressions." })),
    source: Type.Union([StringEnum(BLOCKLIST_SOURCES), Type.Null()], {
      description: 'How the entry got here: user (this API), import (CSV), do_not_contact (a lead so marked); null for suppressions.',
    }),
    cause: Type.Union([StringEnum(SUPPRESSION_CAUSES), Type.Null()], {
      description: 'Why a suppression exists: unsubscribe, bounce (hard bounce), complaint, reply_unsubscribe (asked in a reply), manual; null for entries.',
    }),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

export const BlocklistListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1.' })),
    perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Items per page, at most 100 (default 20).' })),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Same as perPage.' })),
    type: Type.Optional(StringEnum(BLOCKLIST_ITEM_TYPES, { description: 'Only this type: address, domain, or suppression (the suppression list alone).' })),
    include: Type.Optional(StringEnum(['suppressions'] as const, { description: 'suppressions: show the suppression list beside the entries.' })),
    q: Type.Optional(Type.String({ maxLength: 254, description: 'Only values containing this text (case-insensitive).' })),
    source: Type.Optional(StringEnum(BLOCKLIST_SOURCES, { description: 'Only entries of this source (suppressions, which have none, are left out).' })),
  },
  { additionalProperties: false },
);

export const BlocklistListResponse = Type.Object(
  {
    items: Type.Array(BlocklistItem),
    pagination: Type.Object(
      { page: Type.Integer({ minimum: 1 }), perPage: Type.Integer({ minimum: 1 }), total: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const Value = Type.String({ minLength: 1, maxLength: 2048, description: 'An email address or a domain ("example.com", "@example.com", "*.example.com" or a website address).' });
const Reason = Type.String({ maxLength: MAX_REASON, description: 'Why it is blocked: a note for people.' });

export const BlocklistAddBody = Type.Object(
  {
    value: Type.Optional(Value),
    reason: Type.Optional(Reason),
    entries: Type.Optional(
      Type.Array(Type.Union([Value, Type.Object({ value: Value, reason: Type.Optional(Reason) }, { additionalProperties: false })]), {
        minItems: 1,
        maxItems: MAX_ENTRIES_PER_CALL,
        description: `Up to ${MAX_ENTRIES_PER_CALL} values (strings, or {value, reason}); \`reason\` beside them is the default note.`,
      }),
    ),
  },
  { additionalProperties: false, description: 'Either {value, reason?} or {entries: [...], reason?}.' },
);

export const BlocklistAddResult = Type.Object(
  {
    added: Type.Integer({ minimum: 0 }),
    duplicates: Type.Integer({ minimum: 0, description: 'Values already on the list (or given twice): they keep their first reason and source.' }),
    invalid: Type.Integer({ minimum: 0 }),
    entries: Type.Array(
      Type.Object({ ...BlocklistItem.properties, status: StringEnum(['added', 'already_listed'] as const) }, { additionalProperties: false }),
      { description: 'Each distinct valid value with its stored entry: added by this call, or already listed.' },
    ),
    errors: Type.Array(
      Type.Object({ index: Type.Integer({ minimum: 0 }), value: Type.String(), error: Type.String() }, { additionalProperties: false }),
      { description: 'Each invalid value: its position in entries (0 for a single value) and why.' },
    ),
  },
  { additionalProperties: false },
);

export const BlocklistIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export const BlocklistImportResult = Type.Object(
  {
    total: Type.Integer({ minimum: 0, description: 'Data rows read (blank lines and the header are not rows).' }),
    added: Type.Integer({ minimum: 0 }),
    duplicates: Type.Integer({ minimum: 0, description: 'Rows already on the list, or repeated in the file.' }),
    invalid: Type.Integer({ minimum: 0, description: 'Rows that were unreadable or neither an address nor a domain (all of them).' }),
    errors: Type.Array(Type.Object({ line: Type.Integer({ minimum: 1 }), error: Type.String() }, { additionalProperties: false }), {
      maxItems: 100,
      description: 'The first 100 invalid rows: the line each starts on (the first line is 1) and why.',
    }),
  },
  { additionalProperties: false },
);

export const BlocklistExportQuery = Type.Object(
  {
    format: Type.Optional(StringEnum(['csv', 'json'] as const, { default: 'csv', description: 'csv (default) or json.' })),
    include: Type.Optional(StringEnum(['suppressions'] as const, { description: 'suppressions: the suppression list too, with its cause.' })),
  },
  { additionalProperties: false },
);
