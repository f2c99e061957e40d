import type { Client } from '@temporalio/client';
import type { Sequelize } from 'sequelize';
import type { Campaign } from '../../db/models';
import type { Logger } from '../../log/logger';
import type { campaignWorkflow } from '../../../workflows/campaign/workflow';
import { campaignWorkflowId } from '../../../workflows/campaign/contract';
import { recordAudienceCost, type AudienceReading } from '../audience/llm-reader';
import { DEFAULT_LEAD_CONTROL, insertCampaign, type LeadControl, type NewCampaign } from '../campaign-repository';
import { planOf, presetSequence, type CampaignSequence } from '../model/sequence';
import { findTemplate } from '../model/templates';
import { insertSequence } from '../sequences/sequence-repository';
import { countAudience, storedAudience } from '../planning/audience-match';
import { startReportSchedule } from './start-report-schedule';
import { TEMPORAL_CALL_MS } from './temporal-deadline';
import { workflowInputOf } from './workflow-input';

export interface StartDeps {
  readonly sequelize: Sequelize;
  readonly temporal: Client;
  readonly taskQueue: string;
  /**
   * The LLM reading of audience text (readAudienceText with the account's key); without it, text is
   * read by the built-in parser only. It never throws: a failed reading is the parser's.
   */
  readonly readAudience?: (accountId: string, text: string) => Promise<AudienceReading>;
  /** Where a report schedule that could not be started is logged (the worker's sweep starts it later). */
  readonly log?: Logger;
}

/**
 * Stores the campaign (status starting) and starts its workflow, in that order inside one
 * transaction: if Temporal refuses the start, the row is rolled back and nothing half-exists.
 * (If the commit fails after the start, the workflow finds no row and fails on its first write.)
 * The audience's matching reachable leads (of the lead lists in `control`, when it names any) are
 * counted once first (planning refreshes the count). The caller has checked that the lists are the
 * account's (checkListsOwned): a campaign never names another account's list.
 *
 * Text read by the built-in parser (source `parser`) is first given to `readAudience`, before the
 * transaction (no connection is held while a provider answers, and the reading is bounded in
 * time): its filters replace the parser's when the model's are usable (source `llm`), and the
 * tokens it reported are recorded as the campaign's `ai_generation` cost in the same transaction.
 *
 * The sequence (`sequence`, else the template's preset) is stored as version 1 in the same
 * transaction, and its plan goes into the workflow's input: the campaign sends what it was
 * created with, whatever happens to the presets later.
 *
 * A campaign with `reporting.email` also gets its report schedule (`campaign-reports-<id>`) once
 * committed; see startReports.
 */
export async function startCampaign(deps: StartDeps, given: NewCampaign, sequence?: CampaignSequence, control: LeadControl = DEFAULT_LEAD_CONTROL): Promise<Campaign> {
  const template = findTemplate(given.mcp);
  const steps = sequence ?? (template === undefined ? null : presetSequence(template));
  let fields = given;
  let reading: AudienceReading | null = null;
  const text = given.targetAudience?.trim() ?? '';
  if (deps.readAudience !== undefined && given.audienceSource === 'parser' && text !== '') {
    reading = await deps.readAudience(given.accountId, text);
    fields = { ...given, audienceFilters: reading.filters, audienceSource: reading.source };
  }
  const created = await deps.sequelize.transaction(async (transaction) => {
    const audience = storedAudience(fields.audienceFilters ?? null, fields.audienceSource ?? 'all_leads');
    const counted = await countAudience(deps.sequelize, fields.accountId, audience, control.leadListIds);
    const campaign = await insertCampaign(deps.sequelize, { ...fields, audienceMatchedLeads: counted.matchedLeads, audienceReason: counted.reason }, transaction, control);
    if (reading?.charge) await recordAudienceCost(deps.sequelize, transaction, campaign, reading.charge);
    if (steps !== null) {
      await insertSequence(deps.sequelize, transaction, campaign.id, 1, steps);
      campaign.sequenceVersion = 1;
    }
    await deps.temporal.withDeadline(Date.now() + TEMPORAL_CALL_MS, () =>
      deps.temporal.workflow.start<typeof campaignWorkflow>('campaignWorkflow', {
        taskQueue: deps.taskQueue,
        workflowId: campaignWorkflowId(campaign.id),
        args: [workflowInputOf(campaign, steps === null ? {} : { sequence: planOf(steps, 1) })],
      }),
    );
    return campaign;
  });
  if (created.reportingEmail) await startReports(deps, created);
  return created;
}

/**
 * The campaign's emailed reports, started after the commit and outside it: a campaign is not
 * refused for its reports. If Temporal does not take the start now, the worker's sweep at its next
 * start finds the campaign without a schedule and starts it (src/worker/report-schedule-sweep.ts).
 */
export async function startReports(deps: Pick<StartDeps, 'temporal' | 'taskQueue' | 'log'>, campaign: Campaign): Promise<void> {
  try {
    await deps.temporal.withDeadline(Date.now() + TEMPORAL_CALL_MS, () => startReportSchedule(deps.temporal, deps.taskQueue, campaign));
  } catch (err) {
    deps.log?.warn({ err, campaignId: campaign.id }, 'report schedule not started; the worker sweep will start it');
  }
}
