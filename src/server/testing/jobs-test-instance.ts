/**
 * One more instance for jobs.test.ts, in its own process: `node --import tsx jobs-test-instance.ts`
 * with JOBS_TEST_DATABASE (a DatabaseConfig as JSON), JOBS_TEST_MODE (`run`: each `test.record`
 * job appends "<id> <pid>" to JOBS_TEST_LOG; `hang`: prints "started <id>" and never finishes)
 * and JOBS_TEST_LEASE_MS. It prints "ready" once its runner has started.
 */
import { appendFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import type { DatabaseConfig } from '../config';
import { openDatabase } from '../db/connection';
import { defineJob } from '../jobs/queue';
import { JobRunner } from '../jobs/runner';

const config = JSON.parse(process.env.JOBS_TEST_DATABASE!) as DatabaseConfig;
const mode = process.env.JOBS_TEST_MODE;
const database = await openDatabase(config);
const record = defineJob({
  kind: 'test.record',
  payload: z.object({ n: z.number() }),
  timeLimitMs: 60_000,
  async run(_payload, { jobId }) {
    if (mode === 'hang') {
      process.stdout.write(`started ${jobId}\n`);
      await new Promise(() => {});
    }
    appendFileSync(process.env.JOBS_TEST_LOG!, `${jobId} ${process.pid}\n`);
    await delay(Number(process.env.JOBS_TEST_WORK_MS ?? 20));
    return { pid: process.pid };
  },
});
const runner = new JobRunner({
  database,
  jobs: [record],
  pollIntervalMs: 20,
  leaseMs: Number(process.env.JOBS_TEST_LEASE_MS ?? 60_000),
  concurrency: 2,
});
runner.start();
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void runner
    .stop()
    .then(() => database.close())
    .then(() => process.exit(0));
});
