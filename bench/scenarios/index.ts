import type { Scenario } from '../lib/scenario';
import { audiencePlanScenario } from './audience-plan';
import { campaignPageScenario } from './campaign-page';
import { campaignReadScenario } from './campaign-read';
import { campaignScaleScenario } from './campaign-scale';
import { enrolScenario } from './enrol';
import { enrolHistoryScenario } from './enrol-history';
import { meScenario } from './me';
import { openPixelScenario } from './open-pixel';
import { pauseLatencyScenario } from './pause-latency';
import { renderScenario } from './render';
import { smtpSendScenario } from './smtp-send';
import { webhookLatencyScenario } from './webhook-latency';
import { webhookThroughputScenario } from './webhook-throughput';

/** Every scenario, in the order `npm run bench` runs them when none is named. */
export const SCENARIOS: readonly Scenario[] = [meScenario, campaignReadScenario, openPixelScenario, smtpSendScenario, pauseLatencyScenario, campaignScaleScenario, webhookThroughputScenario, webhookLatencyScenario, audiencePlanScenario, renderScenario, campaignPageScenario, enrolScenario, enrolHistoryScenario];
