import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import type { AdminProfile } from '../../../contract/auth';
import { ERROR_CODES } from '../../../contract/errors';
import type { App } from '../../context';
import { HttpError } from '../../http-error';
import { isForeignKeyViolation } from './queries';
import type { SessionStore } from './sessions';

/** Who may call an admin route: any signed-in admin, or super users only. */
export type Access = 'admin' | 'super';
export const ACCESS_LEVELS: readonly Access[] = ['admin', 'super'];

export const ADMIN_PREFIX = '/api/admin';

export interface AdminRouteRow {
  method: string;
  url: string;
  access: Access;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every route under /api/admin; the guard is attached from it. */
    access?: Access;
  }
  interface FastifyRequest {
    /** The signed-in admin on guarded routes (and on /api/auth/me). */
    admin: AdminProfile | null;
  }
  interface FastifyInstance {
    /** Every /api/admin route, and every other route declaring access, with its access level, as registered (HEAD omitted). */
    adminRouteTable: readonly AdminRouteRow[];
    /** The signed-in admin on any route (null when signed out, or until a required password change), for routes that only treat admins differently. */
    currentAdmin(request: FastifyRequest, reply: FastifyReply): Promise<AdminProfile | null>;
  }
}

export const unauthorized = () => new HttpError(401, ERROR_CODES.unauthorized, 'Please sign in');
export const forbidden = () => new HttpError(403, ERROR_CODES.forbidden, 'Only super admins can do this');
/** An admin marked to change the password (a CLI reset, or "must change" at creation) may do nothing else until then. */
export const passwordChangeRequired = () =>
  new HttpError(403, ERROR_CODES.passwordChangeRequired, 'Change your password to continue');

/** The admin a guard attached to the request. */
export function signedInAdmin(request: FastifyRequest): AdminProfile {
  if (!request.admin) throw unauthorized();
  return request.admin;
}

const isAdminUrl = (url: string) => url === ADMIN_PREFIX || url.startsWith(`${ADMIN_PREFIX}/`);

/**
 * Every route under /api/admin gets its guard from `config.access`, and a route that declares
 * none stops the app from starting: authorization cannot be forgotten route by route.
 * The guard runs on onRequest, before the body is parsed or validated, so an anonymous
 * caller learns nothing about a route beyond 401. Must be installed before admin routes.
 */
export function installAdminGuard(app: App, sessions: SessionStore): void {
  const table: AdminRouteRow[] = [];
  app.decorate('adminRouteTable', table);
  app.decorateRequest('admin', null);
  // An admin who must change the password first is nobody special on these routes either.
  app.decorate('currentAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
    const session = await sessions.loadSession(request, reply);
    return session && !session.mustChangePassword ? session.admin : null;
  });

  const requireAdmin = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
    const session = await sessions.loadSession(request, reply);
    if (!session) throw unauthorized();
    if (session.mustChangePassword) throw passwordChangeRequired();
    request.admin = session.admin;
  };
  const requireSuperUser = async (request: FastifyRequest, reply: FastifyReply) => {
    await requireAdmin(request, reply);
    if (!request.admin?.is_super_user) throw forbidden();
  };

  /**
   * The guard vouches for the admin when the request starts; a super admin may delete that admin
   * while it runs. A write recording them (a new resource's or announcement's admin_id) then breaks
   * a foreign key: answered as for any request whose session is gone (401), not as a fault of ours.
   * Anything else goes on to the route's own handler, or the app's.
   */
  const whenAdminGone =
    (own: RouteOptions['errorHandler']): RouteOptions['errorHandler'] =>
    async function (this: FastifyInstance, error, request, reply) {
      // When the check itself fails, the original error is the one to report.
      const gone = request.admin !== null && isForeignKeyViolation(error) && !(await sessions.stillValid(request).catch(() => true));
      const answer = gone ? unauthorized() : error;
      if (own) return own.call(this, answer, request, reply);
      throw answer;
    };

  app.addHook('onRoute', (route: RouteOptions) => {
    const access = route.config?.access;
    // A route elsewhere (an admin's own account under /api/auth) is guarded when it declares access.
    if (!isAdminUrl(route.url) && access === undefined) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!access || !ACCESS_LEVELS.includes(access)) {
      throw new Error(`${methods.join(',')} ${route.url} is an admin route without config.access ('admin' | 'super')`);
    }
    const guard: onRequestHookHandler = access === 'super' ? requireSuperUser : requireAdmin;
    const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    route.onRequest = [guard, ...existing];
    route.errorHandler = whenAdminGone(route.errorHandler);
    for (const method of methods) if (method !== 'HEAD') table.push({ method, url: route.url, access });
  });
}
