import { Type } from '@sinclair/typebox';

const Organization = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    plan: Type.Union([Type.Literal('free'), Type.Literal('pro')]),
    emailLimit: Type.Integer({ description: 'Emails a month the plan allows.' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const MeResponse = Type.Object(
  {
    account: Type.Object(
      { id: Type.String(), name: Type.String(), createdAt: Type.String({ format: 'date-time' }) },
      { additionalProperties: false },
    ),
    organization: Organization,
    apiKey: Type.Object({ id: Type.String(), prefix: Type.String() }, { additionalProperties: false, description: 'The key this request used.' }),
  },
  { additionalProperties: false },
);
