import type { AppContext } from '../../context';
import { resolveSessionSecret } from '../auth/secret';
import { type LinkKind, type LinkSigner, linkSigner } from './links';
import { createUploads, type Uploads } from './uploads';

interface FileServices {
  uploads: Uploads;
  signer(): Promise<LinkSigner>;
  /** A signer of another kind of link, keyed for its purpose alone (links.ts LinkKind). */
  signerFor(kind: LinkKind): Promise<LinkSigner>;
}

const byContext = new WeakMap<AppContext, FileServices>();

/** The tus server and the link signer of one app (the resources and files modules share them). */
export function fileServices(ctx: AppContext): FileServices {
  let services = byContext.get(ctx);
  if (!services) {
    let signer: Promise<LinkSigner> | undefined;
    services = {
      uploads: createUploads(ctx),
      signer: () => (signer ??= resolveSessionSecret(ctx.config, ctx.database).then((secret) => linkSigner(secret))),
      signerFor: (kind) => resolveSessionSecret(ctx.config, ctx.database).then((secret) => linkSigner(secret, kind)),
    };
    byContext.set(ctx, services);
  }
  return services;
}
