import { BackToDashboard } from '../components/back-to-dashboard';
import { PageHeader } from '../components/page-header';
import { useAdminTitle } from '../components/use-admin-title';
import { useSession } from '../session/session';
import { TwoStepPolicySection } from './two-step-policy';
import { TwoStepSection } from './two-step-section';
import { PasskeysSection } from './passkeys-section';
import { PasswordSection } from './password-section';
import { SessionsSection } from './sessions-section';

/**
 * /admin/security: the signed-in admin's own account — their second factors, passkeys, sessions
 * and password (docs/decisions: admin security). Each part is a section component of its own in
 * this folder, listed here in the order an admin reads them.
 */
export function SecurityPage() {
  useAdminTitle('Security');
  const { admin } = useSession();
  return (
    <>
      <PageHeader title="Security" description="Protect your account: two-step sign-in, passkeys, sessions and password" actions={<BackToDashboard />} />
      <div className="grid gap-6">
        <TwoStepSection />
        {admin?.is_super_user && <TwoStepPolicySection />}
        <PasskeysSection />
        <SessionsSection />
        <PasswordSection />
      </div>
    </>
  );
}
