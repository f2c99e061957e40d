import { leadFromFields, previewDraft } from '../../../campaigns/sequences/preview-requests';
import { validateSequence } from '../../../campaigns/sequences/validate-sequence';
import { badRequest } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { previewDeps } from '../campaigns/campaign-deps';
import { optionalText, siteField, templateField, trackingFields } from '../campaigns/create-fields';
import { previewB } from './present';
import { PreviewResponse, SequencePreviewBody } from './schemas';

/** Surface B's preview of a sequence no campaign has yet. A campaign's own preview is in campaigns/routes-b.ts. */

const preview = defineRoute({
  method: 'post',
  path: '/v1/sequences/preview',
  auth: 'b',
  operationId: 'v1PreviewSequence',
  summary: 'Render a sequence for one lead, as it would be sent, without sending anything',
  description:
    'Every step for the lead (`leadId`, one of the account\'s leads, or `lead`, fields typed in): the variant it gets, the subject and both parts as sent ' +
    '(signature, tracked links, open beacon, unsubscribe lines), the step it replies to, and why a step would be passed over (a merge variable without ' +
    'a value and no default). The sequence is checked as a create request\'s is (400 naming the step). Where the host has SpamAssassin, each step\'s ' +
    'local score and the rules that fired. An ai step with the account\'s LLM key is written by the model and charged as an `email-preview` cost.',
  tags: ['campaigns'],
  body: SequencePreviewBody,
  responses: { 200: { description: 'Each step as the lead would get it', schema: PreviewResponse } },
  errors: [404],
  handler: async ({ body }, { auth, deps }) => {
    if ((body.leadId === undefined) === (body.lead === undefined)) throw badRequest('give either leadId (one of your leads) or lead (its fields), not both');
    const template = templateField(body.mcp ?? 'sales_outreach');
    const sequence = validateSequence(body.sequence, 'camel');
    const brandUrl = body.brandUrl === undefined ? null : siteField(body.brandUrl, 'brandUrl').href;
    const tracking = trackingFields(body.tracking, body.plainTextOnly);
    const who = body.leadId !== undefined ? { leadId: body.leadId } : { lead: leadFromFields(body.lead!) };
    const answer = await previewDraft(
      previewDeps(deps),
      auth.accountId,
      {
        sequence,
        mcp: template.name,
        brandUrl,
        targetAudience: optionalText(body.targetAudience),
        targetOutcome: optionalText(body.targetOutcome),
        valueForTarget: optionalText(body.valueForTarget),
        calendarLink: body.calendarLink ?? null,
        tracking: { opens: tracking.trackOpens, clicks: tracking.trackClicks, plainTextOnly: tracking.plainTextOnly },
      },
      who,
      { spamCheck: body.spamCheck ?? true },
    );
    return { body: previewB(answer) };
  },
});

export const sequenceRoutes = [preview];
