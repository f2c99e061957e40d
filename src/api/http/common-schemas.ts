import { Type } from '@sinclair/typebox';

/** Lists page with `page` (from 1) and `per_page` (1..100, default 20); out of range is a 400. */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1.' })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Items per page, at most 100.' })),
};

export const Pagination = Type.Object(
  { total: Type.Integer({ minimum: 0 }), page: Type.Integer({ minimum: 1 }), per_page: Type.Integer({ minimum: 1 }) },
  { additionalProperties: false },
);

export const Timestamp = Type.String({ format: 'date-time' });

/**
 * The pattern of a string that must not be blank: one character other than white space. Its 400
 * reads `body.name must not be blank` (validation.ts).
 */
export const NOT_BLANK = '\\S';
