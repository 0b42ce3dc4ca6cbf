import type { FastifyInstance } from 'fastify';

/**
 * A task every instance runs on a timer (scheduled publishing, the trash's purge): once when the
 * app is ready, then every `everyMs`; a tick that finds the last one still running skips; closing
 * the app stops the timer and waits for a running tick. The task itself must be safe to run on
 * several instances at once (each does its work in conditional writes). What it did is logged
 * when it names anything; a failure is a warning, and the next tick tries again.
 */
export function startPeriodic(
  app: FastifyInstance,
  task: { everyMs: number; run(): Promise<readonly number[]>; did: string; failed: string },
): void {
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const tick = () => {
    if (busy) return;
    busy = true;
    running = task
      .run()
      .then((ids) => {
        if (ids.length > 0) app.log.info({ ids }, task.did);
      })
      .catch((err: unknown) => app.log.warn({ err }, task.failed))
      .finally(() => (busy = false));
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    tick();
    timer = setInterval(tick, task.everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
