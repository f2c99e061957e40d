import type { Scenario } from '../lib/scenario';
import { meScenario } from './me';
import { openPixelScenario } from './open-pixel';
import { smtpSendScenario } from './smtp-send';

/** Every scenario, in the order `npm run bench` runs them when none is named. */
export const SCENARIOS: readonly Scenario[] = [meScenario, openPixelScenario, smtpSendScenario];
