import { type MediaTools, mediaTools } from '../media/ffmpeg';

/**
 * The niceness tests run ffmpeg at: the product's (MEDIA_NICE, 19) would leave a test's ffmpeg only
 * the CPU the suite's other workers leave, which on a busy machine is next to none, and its time
 * limits would stop it. The product's niceness is tested on its own (media/ffmpeg.test.ts).
 */
export const TEST_MEDIA_NICE = 0;

/** The media tools as the product makes them, at the tests' niceness. */
export function testMediaTools(overrides: Partial<MediaTools> = {}): MediaTools {
  return mediaTools({ niceness: TEST_MEDIA_NICE, ...overrides });
}
