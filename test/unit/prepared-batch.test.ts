import { expect } from 'chai';
import type { Sequelize } from 'sequelize';
import { preparedBatch } from '../../src/db/prepared-query';
import { createSequelize } from '../../src/db/sequelize';
import { createTestDatabase, type TestDatabase } from '../support/database';

const INSERT = 'INSERT INTO batch_probe (id, v) VALUES ($1::int, $2::text)';
const READ = 'SELECT id, v FROM batch_probe WHERE id = $1::int';
const RENAME = 'UPDATE batch_probe SET v = $2::text WHERE id = $1::int RETURNING v';

const insert = (id: number, v: string | null) => ({ name: 'probe_insert', text: INSERT, values: [id, v] });

describe('preparedBatch: several executions in one transaction and one round trip (real PostgreSQL)', () => {
  let db: TestDatabase;
  // One connection, so later batches run the statements it has already prepared.
  let single: Sequelize;

  before(async () => {
    db = await createTestDatabase();
    await db.sequelize.query('CREATE TABLE batch_probe (id int PRIMARY KEY, v text NOT NULL)');
    single = createSequelize({ url: db.url, poolMax: 1 });
  });

  after(async () => {
    await single?.close();
    await db?.drop();
  });

  const count = async (): Promise<number> => {
    const [rows] = await db.sequelize.query('SELECT count(*)::int AS n FROM batch_probe');
    return (rows as Array<{ n: number }>)[0]?.n ?? -1;
  };

  it('a failing step rolls back the steps before it: nothing of the batch is written', async () => {
    const failed = await preparedBatch(single, [insert(1, 'a'), insert(2, null)]).then(
      () => null,
      (err: unknown) => err as { code?: string },
    );
    expect(failed?.code).to.equal('23502');
    expect(await count()).to.equal(0);
  });

  it('all steps commit together, each with its own rows and count, again on the same connection', async () => {
    const first = await preparedBatch(single, [insert(1, 'a'), insert(2, 'b'), { name: 'probe_read', text: READ, values: [2] }]);
    expect(first.map((r) => r.rowCount)).to.deep.equal([1, 1, 1]);
    expect(first[2]?.rows).to.deep.equal([{ id: 2, v: 'b' }]);

    const second = await preparedBatch(single, [
      { name: 'probe_rename', text: RENAME, values: [1, 'c'] },
      { name: 'probe_read', text: READ, values: [1] },
      { name: 'probe_read', text: READ, values: [3] },
      { name: 'probe_rename', text: RENAME, values: [3, 'none'] },
    ]);
    expect(second.map((r) => r.rows)).to.deep.equal([[{ v: 'c' }], [{ id: 1, v: 'c' }], [], []]);
    expect(second.map((r) => r.rowCount)).to.deep.equal([1, 1, 0, 0]);
    expect(await count()).to.equal(2);
  });
});
