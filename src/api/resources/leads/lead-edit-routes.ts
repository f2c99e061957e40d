import { editLead, EDITABLE_FIELDS, type EditableField } from '../../../leads/edit-lead';
import { eraseLead } from '../../../leads/erase-lead';
import { badRequest } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { LeadEditBody, LeadWithStatus } from './lead-edit-schemas';
import { LeadIdParams } from './schemas';

/** The lead's state set from outside: its status and fields (PATCH), and its erasure (DELETE). */
const edit = defineRoute({
  method: 'patch',
  path: '/v1/leads/:id',
  auth: 'b',
  operationId: 'updateLead',
  summary: "Set a lead's status, edit its fields and custom fields",
  description:
    'Members left out keep their value; null (or a blank string) clears a field. Edited title, company, industry, place, seniority, department ' +
    'or company size recompute the profile audiences match on. The address cannot be changed (400): it is the lead\'s identity; import a new ' +
    'lead instead. The status, its effects (sequences ended, address blocked) and the edits are written together or not at all. The answer ' +
    'is the lead as GET shows it, with its status.',
  tags: ['leads'],
  params: LeadIdParams,
  body: LeadEditBody,
  errors: [400, 404],
  responses: { 200: { description: 'The lead after the change', schema: LeadWithStatus } },
  handler: async ({ params, body }, { deps, auth }) => {
    if (body.email !== undefined) throw badRequest("body.email cannot be changed: an address is the lead's identity; import a new lead instead");
    const { status, customFields, email: _email, ...rest } = body;
    const fields: Partial<Record<EditableField, string | null>> = {};
    for (const f of Object.keys(EDITABLE_FIELDS) as EditableField[]) if (rest[f] !== undefined) fields[f] = rest[f];
    if (status === undefined && customFields === undefined && Object.keys(fields).length === 0) {
      throw badRequest('body must set at least one of status, customFields or a lead field');
    }
    return { body: await editLead(deps.sequelize, auth.accountId, params.id, { status, fields, customFields }) };
  },
});

const erase = defineRoute({
  method: 'delete',
  path: '/v1/leads/:id',
  auth: 'b',
  operationId: 'eraseLead',
  summary: "Erase a lead and the person's data (right to be forgotten)",
  description:
    "The person's address, names and every other field are erased from the lead, its emails, replies, meetings, events and webhook events; " +
    'its lists drop it and its sequences end. The emails sent stay counted in the statistics, anonymised. Afterwards the lead is not found, ' +
    'listed or searched, and no email goes to it. The address is not kept anywhere, not even on the suppression list or blocklist: ' +
    'importing it again creates a new lead.',
  tags: ['leads'],
  params: LeadIdParams,
  errors: [404],
  responses: { 204: { description: 'Erased' } },
  handler: async ({ params }, { deps, auth }) => {
    await eraseLead(deps.sequelize, auth.accountId, params.id);
    return { status: 204, body: null };
  },
});

export const leadEditRoutes = [edit, erase];
