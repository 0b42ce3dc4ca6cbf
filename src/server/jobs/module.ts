import type { Module } from '../context';
import { JobRunner } from './runner';

/**
 * The job runner of this instance: started when the app is ready (every module has registered its
 * kinds by then), stopped when it closes (running jobs get a grace period, then go back to the
 * queue for the next start or another instance). MEDIA_JOBS_CONCURRENCY jobs at a time (default 1;
 * 0: this instance runs none). See docs/decisions/223-media-worker-in-the-server.md.
 */
export const jobsModule: Module = (app, { config, database, jobs, metrics }) => {
  if (config.mediaJobsConcurrency === 0) return;
  let runner: JobRunner | undefined;
  app.addHook('onReady', async () => {
    runner = new JobRunner({ database, jobs: jobs.all(), concurrency: config.mediaJobsConcurrency, log: app.log, onSettled: (kind, outcome, seconds) => metrics?.job(kind, outcome, seconds) });
    runner.start();
  });
  app.addHook('onClose', async () => runner?.stop());
};
