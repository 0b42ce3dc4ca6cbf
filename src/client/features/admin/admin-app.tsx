import { Navigate, Route, Routes } from 'react-router';
import { Spinner } from '@/components/ui/primitives';
import { paths } from '@/lib/paths';
import { ActivityPage } from './activity/activity-page';
import { AdminShell } from './components/admin-shell';
import { RequireAdmin } from './components/require-admin';
import { AdminNotFound } from './routes/admin-not-found';
import { AnnouncementsPage } from './routes/announcements-page';
import { CataloguePage } from './routes/catalogue-page';
import { DashboardPage } from './routes/dashboard-page';
import { LoginPage } from './routes/login-page';
import { ManageAdminsPage } from './routes/manage-admins-page';
import { ResourceFormPage } from './resource-form/resource-form-page';
import { ResourceListPage } from './routes/resource-list-page';
import { ResourceStatsPage } from './routes/resource-stats-page';
import { TrashPage } from './routes/trash-page';
import { LinkHealthPage } from './routes/link-health-page';
import { SystemPage } from './routes/system-page';
import { SecurityPage } from './security/security-page';
import { SessionProvider, useSession } from './session/session';
import { SettingsPage } from './settings/settings-page';

/** Everything under /admin/*: a lazy chunk of its own, so visitors never download it. */
export default function AdminApp() {
  return (
    <SessionProvider>
      <Routes>
        <Route index element={<AdminIndex />} />
        <Route path="login" element={<LoginPage />} />
        <Route
          element={
            <RequireAdmin>
              <AdminShell />
            </RequireAdmin>
          }
        >
          <Route path="dashboard" element={<DashboardPage />} />
          <Route path="resources/:category" element={<ResourceListPage />} />
          <Route path="resources/:category/new" element={<ResourceFormPage key="create" mode="create" />} />
          <Route path="resources/:category/:id/edit" element={<ResourceFormPage key="edit" mode="edit" />} />
          <Route path="resources/:category/:id/stats" element={<ResourceStatsPage />} />
          <Route path="catalogue" element={<CataloguePage />} />
          <Route path="announcements" element={<AnnouncementsPage />} />
          <Route path="trash" element={<TrashPage />} />
          <Route path="link-health" element={<LinkHealthPage />} />
          <Route path="activity" element={<ActivityPage />} />
          <Route path="security" element={<SecurityPage />} />
          <Route path="system" element={<SystemPage />} />
          <Route path="manage-admins" element={<ManageAdminsPage />} />
          <Route path="settings" element={<Navigate to={paths.admin.settings()} replace />} />
          <Route path="settings/:screen" element={<SettingsPage />} />
          <Route path="*" element={<AdminNotFound />} />
        </Route>
      </Routes>
    </SessionProvider>
  );
}

/** /admin itself: the dashboard for a signed-in admin, the login page otherwise. */
function AdminIndex() {
  const { status } = useSession();
  if (status === 'loading') {
    return (
      <div role="status" className="grid min-h-dvh place-items-center text-muted-foreground">
        <span className="flex items-center gap-2">
          <Spinner /> Checking your session…
        </span>
      </div>
    );
  }
  return <Navigate to={status === 'signed-in' ? paths.admin.dashboard : paths.admin.login} replace />;
}
