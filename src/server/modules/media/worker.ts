import type { Module } from '../../context';
import { demoPreviewsJob } from '../../demo/demo-previews';
import { ffmpegInstalled, mediaTools } from '../../media/ffmpeg';
import { JobRunner } from './jobs';
import { previewJobs } from './previews';
import { publishPreview } from './resource-previews';

/**
 * The media job runner of this instance: started when the app is ready, stopped when it closes
 * (running jobs get a grace period, then go back to the queue for the next start or another
 * instance). MEDIA_JOBS_CONCURRENCY jobs at a time (default 1; 0: this instance runs none).
 * Without ffmpeg the site runs as usual; video and audio jobs fail with "ffmpeg is not installed".
 */
export const mediaJobsModule: Module = (app, { config, database, files }) => {
  if (config.mediaJobsConcurrency === 0) return;
  const tools = mediaTools({ ffmpeg: config.ffmpegPath, ffprobe: config.ffprobePath, niceness: config.mediaNice });
  const runner = new JobRunner({
    database,
    jobs: [
      ...previewJobs({ files, tools, onStored: (jobId, preview) => publishPreview(database, jobId, preview) }),
      demoPreviewsJob({ database, files, tools, dataDir: config.dataDir, log: app.log }),
    ],
    concurrency: config.mediaJobsConcurrency,
    log: app.log,
  });
  app.addHook('onReady', async () => {
    if (!ffmpegInstalled(tools)) {
      app.log.warn({ ffmpeg: tools.ffmpeg, ffprobe: tools.ffprobe }, 'ffmpeg is not installed: video and audio previews will fail until it is (Debian: apt-get install ffmpeg)');
    }
    runner.start();
  });
  app.addHook('onClose', async () => runner.stop());
};
