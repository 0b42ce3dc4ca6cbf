import type { Module } from '../context';
import type { JobDefinition } from './queue';
import { JobRunner } from './runner';

/**
 * The job kinds this app runs, each registered by the feature that owns it (media its previews,
 * the demo its demo-previews job): the queue itself knows no feature
 * (docs/decisions/353-a-job-queue-of-its-own.md).
 */
export class JobKinds {
  private readonly byKind = new Map<string, JobDefinition>();

  register(...definitions: JobDefinition[]): void {
    for (const definition of definitions) {
      // Two handlers for one kind would run whichever came last: a programming error, caught at start.
      if (this.byKind.has(definition.kind)) throw new Error(`The job kind ${definition.kind} is registered twice.`);
      this.byKind.set(definition.kind, definition);
    }
  }

  all(): JobDefinition[] {
    return [...this.byKind.values()];
  }
}

/**
 * The job runner of this instance: started when the app is ready (every module has registered its
 * kinds by then), stopped when it closes (running jobs get a grace period, then go back to the
 * queue for the next start or another instance). MEDIA_JOBS_CONCURRENCY jobs at a time (default 1;
 * 0: this instance runs none). See docs/decisions/223-media-worker-in-the-server.md.
 */
export const jobsModule: Module = (app, { config, database, jobs }) => {
  if (config.mediaJobsConcurrency === 0) return;
  let runner: JobRunner | undefined;
  app.addHook('onReady', async () => {
    runner = new JobRunner({ database, jobs: jobs.all(), concurrency: config.mediaJobsConcurrency, log: app.log });
    runner.start();
  });
  app.addHook('onClose', async () => runner?.stop());
};
