import { adminCreateSchema, adminListSchema, adminProfileSchema, endedSessionsSchema } from '../../../contract/auth';
import { API } from '../../../contract/api-paths';
import { idParamsSchema, okSchema } from '../../../contract/common';
import { ERROR_CODES } from '../../../contract/errors';
import type { Module } from '../../context';
import { notFound } from '../../errors';
import { HttpError } from '../../http-error';
import { signedInAdmin } from '../auth/guard';
import { auditActor } from '../audit/record';
import { AccountInputError, createAccount } from './accounts';
import { deleteAdmin, DuplicateUsernameError, endSessionsOfAdmin, listAdmins } from './queries';

const docs = { tags: ['admins'], security: [{ session: [] }] };

/** Managing admins: super users only. */
export const adminsModule: Module = (app, { database }) => {
  const { db } = database;

  app.get(
    API.adminAdmins,
    { config: { access: 'super' }, schema: { ...docs, response: { 200: adminListSchema } } },
    async function listAdminsHandler() {
      return { items: await listAdmins(db) };
    },
  );

  app.post(
    API.adminAdmins,
    { config: { access: 'super' }, schema: { ...docs, body: adminCreateSchema, response: { 201: adminProfileSchema } } },
    async function createAdminHandler(request, reply) {
      const { username, password, is_super_user, must_change_password } = request.body;
      try {
        const { admin } = await createAccount(db, { username, password, isSuperUser: is_super_user, mustChangePassword: must_change_password, actor: auditActor(request) });
        return reply.status(201).send(admin);
      } catch (err) {
        if (err instanceof DuplicateUsernameError) {
          throw new HttpError(409, ERROR_CODES.conflict, err.message, { username: err.message });
        }
        if (err instanceof AccountInputError) {
          throw new HttpError(400, ERROR_CODES.validation, err.message, { [err.field]: err.message });
        }
        throw err;
      }
    },
  );

  app.delete(
    `${API.adminAdmins}/:id`,
    { config: { access: 'super' }, schema: { ...docs, params: idParamsSchema, response: { 200: okSchema } } },
    async function deleteAdminHandler(request) {
      const actor = { ...auditActor(request), adminId: signedInAdmin(request).id };
      const result = await deleteAdmin(database, actor, request.params.id);
      if (result === 'not_found') throw notFound('Admin not found');
      if (result === 'self') throw new HttpError(409, ERROR_CODES.conflict, 'You cannot delete your own account');
      if (result === 'last_super') throw new HttpError(409, ERROR_CODES.conflict, 'The last super admin cannot be deleted');
      return { ok: true as const };
    },
  );

  // Signs that admin out everywhere (their own Security page ends their own sessions one by one).
  app.delete(
    `${API.adminAdmins}/:id/sessions`,
    { config: { access: 'super' }, schema: { ...docs, params: idParamsSchema, response: { 200: endedSessionsSchema } } },
    async function endAdminSessionsHandler(request) {
      const ended = await endSessionsOfAdmin(db, auditActor(request), request.params.id);
      if (ended === undefined) throw notFound('Admin not found');
      return { ended };
    },
  );
};
