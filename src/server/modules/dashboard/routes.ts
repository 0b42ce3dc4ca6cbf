import { API } from '../../../contract/api-paths';
import { dashboardSchema } from '../../../contract/dashboard';
import type { Module } from '../../context';
import { signedInAdmin } from '../auth/guard';
import { getDashboard } from './queries';

export const dashboardModule: Module = (app, { database }) => {
  app.get(
    API.dashboard,
    {
      config: { access: 'admin' },
      schema: { tags: ['dashboard'], security: [{ session: [] }], response: { 200: dashboardSchema } },
    },
    async function getDashboardHandler(request) {
      return getDashboard(database.db, { includeAdmins: signedInAdmin(request).is_super_user });
    },
  );
};
