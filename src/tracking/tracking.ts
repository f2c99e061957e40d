import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import type { Config } from '../config/config';
import type { Logger } from '../log/logger';
import { serviceSecret } from '../config/service-secret-repository';
import { TrackingLinks } from './links';
import { TrackingRecorder, type TrackingRecorderOptions } from './recorder';

/** What the tracking endpoints need: the link signer/checker and the hit recorder. */
export interface Tracking {
  readonly links: TrackingLinks;
  readonly recorder: TrackingRecorder;
  /** Flushes and closes the recorder; call after the HTTP server has stopped. */
  close(): Promise<void>;
}

export interface TrackingSetup {
  readonly sequelize: Sequelize;
  readonly config: Config;
  readonly log: Logger;
  readonly journalDir: string;
  /** Recorder tuning (tests shorten intervals). */
  readonly recorder?: Omit<TrackingRecorderOptions, 'sequelize' | 'log' | 'dir'>;
}

/**
 * Starts tracking for an API process: the deployment's tracking secret (the same one the sender
 * signs links with), and a recorder that has already replayed any journal a crashed process left.
 */
export async function startTracking(setup: TrackingSetup): Promise<Tracking> {
  const secret = await serviceSecret(setup.sequelize, 'tracking', setup.config.trackingSecret);
  const recorder = new TrackingRecorder({ ...setup.recorder, sequelize: setup.sequelize, log: setup.log, dir: setup.journalDir });
  await recorder.start();
  return { links: new TrackingLinks(secret, setup.config.publicBaseUrl), recorder, close: () => recorder.close() };
}

/**
 * `$DATA_DIR/tracking-journal`. When DATA_DIR cannot be written (a container whose working
 * directory belongs to root), a directory under the system's temporary directory, named after the
 * database so two deployments on one machine never replay each other's journals; it survives a
 * process restart, which is what the journal is for.
 */
export function trackingJournalDir(config: Config, log: Logger): string {
  const preferred = path.join(config.dataDir, 'tracking-journal');
  try {
    fs.mkdirSync(preferred, { recursive: true });
    fs.accessSync(preferred, fs.constants.W_OK);
    return preferred;
  } catch (err) {
    const scope = createHash('sha256').update(config.databaseUrl ?? config.dataDir).digest('hex').slice(0, 12);
    const fallback = path.join(os.tmpdir(), 'outreach-tracking-journal', scope);
    log.warn({ err, preferred, fallback }, 'DATA_DIR is not writable; the tracking journal goes to the temporary directory');
    return fallback;
  }
}
