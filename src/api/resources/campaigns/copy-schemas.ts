import { Type } from '@sinclair/typebox';
import { CampaignName } from './schemas';

/** POST /campaigns/:id/duplicate and /v1/campaigns/:id/duplicate: the same two members on both surfaces. */
export const DuplicateCampaignBody = Type.Object(
  {
    name: Type.Optional(CampaignName('The copy\'s name; default "<the source\'s name> (copy)".')),
    start: Type.Optional(
      Type.Boolean({
        description: 'true (default): the copy starts now (status starting, its workflow running). false: the copy is a draft, stored but not started: no workflow, no email, until POST .../start.',
      }),
    ),
  },
  { additionalProperties: false },
);
