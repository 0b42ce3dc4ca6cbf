import { API } from '../../../contract/api-paths';
import { idParamsSchema } from '../../../contract/common';
import {
  adminSettingsSchema,
  markdownPreviewBodySchema,
  markdownPreviewSchema,
  SETTINGS_LIMITS,
  settingsPatchSchema,
  settingsVersionDetailSchema,
  settingsVersionListSchema,
} from '../../../contract/settings';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { signedInAdmin } from '../auth/guard';
import { auditActor } from '../audit/record';
import { fileServices } from '../files/services';
import { renderMarkdown } from './markdown';
import { getVersion, listVersions, normalizeSections, readSettings } from './queries';
import { getAdminSettings, restoreVersion, saveSettings } from './service';

const docs = { tags: ['admin settings'], security: [{ session: [] }] };

/**
 * A settings body may carry both legal pages at their longest (SETTINGS_LIMITS.markdown characters
 * each, up to 4 bytes a character, line breaks escaped) beside every other section: far above the
 * default JSON limit, far below anything that hurts.
 */
const SETTINGS_BODY_LIMIT = 2 * (SETTINGS_LIMITS.markdown * 4) + 256 * 1024;

/** The owner's settings (issue 29): super admins only; the public side is modules/site. */
export const settingsModule: Module = (app, ctx) => {
  const { database, config } = ctx;
  const { uploads } = fileServices(ctx);

  app.get(
    API.adminSettings,
    { config: { access: 'super' }, schema: { ...docs, summary: 'Every section of the settings, the media and the current version', response: { 200: adminSettingsSchema } } },
    async function getSettingsHandler() {
      return getAdminSettings(ctx);
    },
  );

  app.patch(
    API.adminSettings,
    {
      bodyLimit: SETTINGS_BODY_LIMIT,
      config: { access: 'super' },
      schema: {
        ...docs,
        summary: 'Replaces each section sent, whole; media by finished upload or null; 409 when base_version is not the current version',
        body: settingsPatchSchema,
        response: { 200: adminSettingsSchema },
      },
    },
    async function updateSettingsHandler(request) {
      return saveSettings(ctx, uploads, { adminId: signedInAdmin(request).id, actor: auditActor(request), patch: request.body });
    },
  );

  app.get(
    API.adminSettingsVersions,
    { config: { access: 'super' }, schema: { ...docs, summary: 'The kept versions, newest first', response: { 200: settingsVersionListSchema } } },
    async function listSettingsVersionsHandler() {
      return { items: await listVersions(database.db) };
    },
  );

  app.get(
    API.adminSettingsVersion(':id'),
    {
      config: { access: 'super' },
      schema: { ...docs, summary: 'One kept version with the sections as they were after it', params: idParamsSchema, response: { 200: settingsVersionDetailSchema } },
    },
    async function getSettingsVersionHandler(request) {
      const version = await getVersion(database.db, request.params.id);
      if (!version) throw notFound('Settings version not found');
      const { stored, ...rest } = version;
      const sections = normalizeSections((typeof stored === 'object' && stored !== null ? stored : {}) as Record<string, unknown>, config.siteName);
      return { ...rest, sections };
    },
  );

  app.post(
    API.adminSettingsRestore(':id'),
    {
      config: { access: 'super' },
      schema: { ...docs, summary: 'Saves a kept version again, as a new version naming it', params: idParamsSchema, response: { 200: adminSettingsSchema } },
    },
    async function restoreSettingsVersionHandler(request) {
      return restoreVersion(ctx, uploads, request.params.id, signedInAdmin(request).id, auditActor(request));
    },
  );

  app.post(
    API.adminSettingsPreviewMarkdown,
    {
      bodyLimit: SETTINGS_BODY_LIMIT,
      config: { access: 'super' },
      schema: { ...docs, summary: 'A legal page as it will be rendered', body: markdownPreviewBodySchema, response: { 200: markdownPreviewSchema } },
    },
    async function previewMarkdownHandler(request) {
      const { sections } = await readSettings(database.db, config.siteName);
      return { html: renderMarkdown(request.body.markdown, sections.site.name) };
    },
  );
};
