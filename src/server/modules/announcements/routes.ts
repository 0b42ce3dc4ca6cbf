import { announcementListSchema } from '../../../contract/announcements';
import { API } from '../../../contract/api-paths';
import { BELL_ANNOUNCEMENT_LIMIT } from '../../../contract/constants';
import type { Module } from '../../context';
import { toAnnouncement } from './mappers';
import { listActiveAnnouncements } from './queries';
import { nowIso } from '../../time';

export const announcementsModule: Module = (app, { database }) => {
  app.get(
    API.activeAnnouncements,
    {
      config: { publicCache: true },
      schema: {
        tags: ['announcements'],
        summary: 'Active announcements inside their window (starts_at, ends_at) for the bell, newest first',
        response: { 200: announcementListSchema },
      },
    },
    async function listActiveAnnouncementsHandler() {
      return { items: (await listActiveAnnouncements(database.db, BELL_ANNOUNCEMENT_LIMIT, nowIso())).map(toAnnouncement) };
    },
  );
};
