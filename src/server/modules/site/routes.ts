import { API } from '../../../contract/api-paths';
import { siteSettingsSchema } from '../../../contract/site';
import type { Module } from '../../context';
import { getSiteSettings } from './queries';

export const siteModule: Module = (app, { config, database }) => {
  app.get(
    API.site,
    {
      config: { publicCache: true },
      schema: {
        tags: ['site'],
        summary: 'Site name, community figures, community links and footer settings',
        response: { 200: siteSettingsSchema },
      },
    },
    async function getSiteHandler() {
      return getSiteSettings(database.db, config.siteName);
    },
  );
};
