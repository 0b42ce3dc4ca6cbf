import { announcementListSchema } from '../../../contract/announcements';
import { API } from '../../../contract/api-paths';
import { BELL_ANNOUNCEMENT_LIMIT } from '../../../contract/constants';
import type { Module } from '../../context';
import { toAnnouncement } from './mappers';
import { listActiveAnnouncements } from './queries';

export const announcementsModule: Module = (app, { database }) => {
  app.get(
    API.activeAnnouncements,
    {
      config: { publicCache: true },
      schema: {
        tags: ['announcements'],
        summary: 'Active announcements for the bell, newest first',
        response: { 200: announcementListSchema },
      },
    },
    async function listActiveAnnouncementsHandler() {
      return { items: (await listActiveAnnouncements(database.db, BELL_ANNOUNCEMENT_LIMIT)).map(toAnnouncement) };
    },
  );
};
