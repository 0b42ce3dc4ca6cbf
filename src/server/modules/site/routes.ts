import { z } from 'zod';
import { API } from '../../../contract/api-paths';
import { LEGAL_PAGES, legalPageSchema } from '../../../contract/settings';
import { siteSettingsSchema } from '../../../contract/site';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { getLegalPage, getSiteSettings } from './queries';

export const siteModule: Module = (app, { config, database }) => {
  app.get(
    API.site,
    {
      config: { publicCache: true },
      schema: {
        tags: ['site'],
        summary: "The owner's site: name, hero and My Website texts, community figures and links, footer",
        response: { 200: siteSettingsSchema },
      },
    },
    async function getSiteHandler() {
      return getSiteSettings(database, config.siteName, config.publicUrl ?? null);
    },
  );

  app.get(
    API.page(':page'),
    {
      config: { publicCache: true },
      schema: {
        tags: ['site'],
        summary: 'A legal page (privacy, terms): the Markdown rendered and sanitised, with when its text last changed',
        params: z.object({ page: z.string() }),
        response: { 200: legalPageSchema },
      },
    },
    async function getLegalPageHandler(request) {
      const page = LEGAL_PAGES.find((p) => p === request.params.page);
      if (!page) throw notFound('Page not found');
      return getLegalPage(database, config.siteName, page);
    },
  );
};
