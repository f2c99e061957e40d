/**
 * Records the campaign histories that ../replay.test.ts replays (see docs/testing.md, "Replay
 * safety"): runs every scenario of scenarios.ts on a fresh time-skipping server with the fake
 * activities and writes each history as the SDK's JSON, one file per history, in this folder.
 * Files of scenarios that no longer exist are left alone. The dates in a recording are those of
 * the day it was made; everything else comes out the same each time.
 *
 * Re-record only for a change that is deliberately incompatible and not deployed yet.
 */
import { historyToJson } from '../support/history-json';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createLogger } from '../../../src/log/logger';
import { installTemporalRuntime } from '../../../src/temporal/runtime-logging';
import { CampaignHarness } from '../support/campaign-harness';
import { SCENARIOS } from './scenarios';

async function main(): Promise<void> {
  installTemporalRuntime(createLogger('error', 'record-histories'));
  const only = process.argv.slice(2);
  const h = new CampaignHarness();
  await h.start();
  try {
    for (const scenario of SCENARIOS) {
      if (only.length > 0 && !only.includes(scenario.name)) continue;
      for (const { name, history } of await scenario.record(h)) {
        const file = join(__dirname, `${name}.json`);
        // Stack traces of failures name the recording machine's folders: dropped (replay does not read them).
        const json = JSON.stringify(JSON.parse(historyToJson(history)), (key, value: unknown) => (key === 'stackTrace' ? '' : value), 1);
        await writeFile(file, `${json}\n`);
        console.log(`${name}.json: ${history.events?.length ?? 0} events`);
      }
    }
  } finally {
    await h.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
