import {
  announcementCreateSchema,
  announcementListSchema,
  announcementPatchSchema,
  announcementSchema,
} from '../../../contract/announcements';
import { API } from '../../../contract/api-paths';
import { idParamsSchema, okSchema } from '../../../contract/common';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { signedInAdmin } from '../auth/guard';
import { auditActor } from '../audit/record';
import {
  createAnnouncement,
  deleteAnnouncement,
  listAnnouncementsForAdmin,
  updateAnnouncement,
} from './admin-queries';

const docs = { tags: ['admin announcements'], security: [{ session: [] }] };
const one = `${API.adminAnnouncements}/:id`;

export const adminAnnouncementsModule: Module = (app, { database }) => {
  const { db } = database;

  app.get(
    API.adminAnnouncements,
    { config: { access: 'admin' }, schema: { ...docs, response: { 200: announcementListSchema } } },
    async function listAnnouncementsHandler() {
      return { items: await listAnnouncementsForAdmin(db) };
    },
  );

  app.post(
    API.adminAnnouncements,
    { config: { access: 'admin' }, schema: { ...docs, body: announcementCreateSchema, response: { 201: announcementSchema } } },
    async function createAnnouncementHandler(request, reply) {
      // The author is whoever is signed in; the strict body schema refuses an admin_id field.
      const created = await createAnnouncement(db, request.body, signedInAdmin(request).id, auditActor(request));
      return reply.status(201).send(created);
    },
  );

  app.patch(
    one,
    {
      config: { access: 'admin' },
      schema: { ...docs, params: idParamsSchema, body: announcementPatchSchema, response: { 200: announcementSchema } },
    },
    async function updateAnnouncementHandler(request) {
      const updated = await updateAnnouncement(db, request.params.id, request.body, auditActor(request));
      if (!updated) throw notFound('Announcement not found');
      return updated;
    },
  );

  app.delete(
    one,
    { config: { access: 'admin' }, schema: { ...docs, params: idParamsSchema, response: { 200: okSchema } } },
    async function deleteAnnouncementHandler(request) {
      if (!(await deleteAnnouncement(db, request.params.id, auditActor(request)))) throw notFound('Announcement not found');
      return { ok: true as const };
    },
  );
};
