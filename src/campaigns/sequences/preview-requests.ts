/**
 * The two previews a user asks for: a campaign's stored sequence for one of its account's leads,
 * and a sequence not yet a campaign's (as a create request would give it) for a lead or for lead
 * fields typed in. Both go through previewSequence, as the sending batch would write them.
 */
import { ownedCampaign } from '../campaign-repository';
import { NotFoundError } from '../../errors/domain-errors';
import { normalizeDomain } from '../../leads/fields';
import type { TrackingChoice } from '../../sending/types';
import { brandName } from '../../writing/brand-name';
import { findCompanyByDomain } from '../../companies/company-repository';
import { presetSequence, type CampaignSequence } from '../model/sequence';
import { findTemplate } from '../model/templates';
import { readAccountSender, readBatchContext, senderIdentity } from '../sending/batch-context';
import { readItemLead, type ItemLead } from '../sending/item-state';
import { leadProfile } from '../../leads/profile/lead-profile';
import { compileSequence } from './compiled-sequence';
import { previewRendering, previewSequence, type PreviewDeps, type PreviewLead, type PreviewStep } from './preview';

export interface PreviewAnswer {
  readonly lead: { readonly id: string | null; readonly email: string };
  readonly steps: readonly PreviewStep[];
}

/** Lead fields typed in (a preview without a stored lead), with the profile an import would compute. */
export interface LeadFields {
  readonly email: string;
  readonly firstName?: string | null;
  readonly lastName?: string | null;
  readonly title?: string | null;
  readonly company?: string | null;
  readonly companyDomain?: string | null;
  readonly industry?: string | null;
  readonly city?: string | null;
  readonly state?: string | null;
  readonly country?: string | null;
  readonly linkedinUrl?: string | null;
  readonly phone?: string | null;
  readonly customFields?: Readonly<Record<string, string>>;
}

export function leadFromFields(l: LeadFields): ItemLead {
  const v = (s: string | null | undefined): string | null => (s === undefined || s === null || s.trim() === '' ? null : s.trim());
  const profile = leadProfile({ title: v(l.title), city: v(l.city), state: v(l.state), country: v(l.country), industry: v(l.industry) });
  return {
    email: l.email.trim().toLowerCase(),
    firstName: v(l.firstName),
    lastName: v(l.lastName),
    title: v(l.title),
    company: v(l.company),
    companyDomain: v(l.companyDomain),
    industry: v(l.industry),
    city: v(l.city),
    state: v(l.state),
    country: v(l.country),
    linkedinUrl: v(l.linkedinUrl),
    phone: v(l.phone),
    customFields: l.customFields ?? null,
    department: profile.department,
    seniority: profile.seniority,
  };
}

async function leadOf(deps: PreviewDeps, accountId: string, who: { leadId: string } | { lead: ItemLead }): Promise<PreviewLead> {
  if ('lead' in who) return { id: null, lead: who.lead };
  const lead = await readItemLead(deps.sequelize, accountId, who.leadId);
  if (lead === null) throw new NotFoundError('lead');
  return { id: who.leadId, lead };
}

/** The campaign's sequence in use, for one of the account's leads, as its next sends would write it. */
export async function previewCampaign(deps: PreviewDeps, accountId: string, campaignId: string, leadId: string, opts: { spamCheck: boolean }): Promise<PreviewAnswer> {
  const campaign = await ownedCampaign(accountId, campaignId);
  const context = await readBatchContext(deps.sequelize, deps.config.defaultFromEmail, { accountId, campaignId, companyId: campaign.companyId });
  if (context === null) throw new NotFoundError('campaign');
  const who = await leadOf(deps, accountId, { leadId });
  const template = findTemplate(campaign.mcp);
  const sequence = context.sequence ?? (template === undefined ? null : compileSequence(presetSequence(template), 1));
  if (sequence === null) throw new NotFoundError('campaign');
  const steps = await previewSequence(
    await previewRendering(deps, accountId),
    {
      accountId,
      campaignId,
      brandId: context.brandId,
      mcp: campaign.mcp,
      sequence,
      winners: context.winners,
      campaign: context.campaign,
      company: context.company,
      tracking: context.tracking,
      identity: context.identity(context.mailboxes[0] ?? null),
    },
    who,
    opts,
  );
  return { lead: { id: who.id, email: who.lead.email }, steps };
}

/** A sequence and the campaign fields a create request would give it. */
export interface DraftCampaign {
  readonly sequence: CampaignSequence;
  readonly mcp: string;
  readonly brandUrl: string | null;
  readonly targetAudience: string | null;
  readonly targetOutcome: string | null;
  readonly valueForTarget: string | null;
  readonly calendarLink: string | null;
  readonly tracking: TrackingChoice;
}

/**
 * A sequence not stored yet, for a lead of the account or for lead fields given in the request.
 * The company it speaks for is the account's scrape of brandUrl's host when there is one (else the
 * name the domain spells); the sender, the account's first active mailbox or its default sender.
 */
export async function previewDraft(deps: PreviewDeps, accountId: string, draft: DraftCampaign, who: { leadId: string } | { lead: ItemLead }, opts: { spamCheck: boolean }): Promise<PreviewAnswer> {
  const sender = await readAccountSender(deps.sequelize, accountId);
  if (sender === null) throw new NotFoundError('account');
  const lead = await leadOf(deps, accountId, who);
  const host = draft.brandUrl === null ? null : normalizeDomain(draft.brandUrl);
  const company = host === null ? null : await findCompanyByDomain(accountId, host);
  const brand = brandName(company?.name, draft.brandUrl);
  const steps = await previewSequence(
    await previewRendering(deps, accountId),
    {
      accountId,
      campaignId: null,
      brandId: host,
      mcp: draft.mcp,
      sequence: compileSequence(draft.sequence, 1),
      winners: new Map(),
      campaign: {
        name: null,
        targetAudience: draft.targetAudience,
        targetOutcome: draft.targetOutcome,
        valueForTarget: draft.valueForTarget,
        senderName: null,
        calendarLink: draft.calendarLink,
        targetUrl: draft.brandUrl,
      },
      company: company === null ? null : { name: company.name, domain: company.domain, description: company.description, industryKeywords: company.industryKeywords },
      tracking: draft.tracking,
      identity: senderIdentity(sender.mailboxes[0] ?? null, sender.account, brand, deps.config.defaultFromEmail),
    },
    lead,
    opts,
  );
  return { lead: { id: lead.id, email: lead.lead.email }, steps };
}
