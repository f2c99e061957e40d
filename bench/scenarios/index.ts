import type { Scenario } from '../lib/scenario';
import { meScenario } from './me';

/** Every scenario, in the order `npm run bench` runs them when none is named. */
export const SCENARIOS: readonly Scenario[] = [meScenario];
