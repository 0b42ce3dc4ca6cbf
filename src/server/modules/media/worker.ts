import type { Module } from '../../context';
import { ffmpegInstalled, mediaTools } from '../../media/ffmpeg';
import { previewJobs } from './previews';
import { publishPreview } from './resource-previews';
import { publishPromoVideo } from '../settings/promo-video';

/**
 * Registers the preview jobs with the app's job kinds (src/server/jobs/, which runs them). Without
 * ffmpeg the site runs as usual; video and audio jobs fail with "ffmpeg is not installed", said
 * once at the start by an instance that runs jobs.
 */
export const mediaJobsModule: Module = (app, { config, database, files, jobs }) => {
  const tools = mediaTools({ ffmpeg: config.ffmpegPath, ffprobe: config.ffprobePath, niceness: config.mediaNice });
  // A job's preview goes to the resources whose job it is, or to the site's promo video (modules/settings).
  const onStored = async (jobId: number, preview: unknown) => {
    await publishPreview(database, jobId, preview);
    await publishPromoVideo(database, jobId, preview);
  };
  jobs.register(...previewJobs({ files, tools, onStored }));
  if (config.mediaJobsConcurrency === 0) return;
  app.addHook('onReady', async () => {
    if (!ffmpegInstalled(tools)) {
      app.log.warn({ ffmpeg: tools.ffmpeg, ffprobe: tools.ffprobe }, 'ffmpeg is not installed: video and audio previews will fail until it is (Debian: apt-get install ffmpeg)');
    }
  });
};
