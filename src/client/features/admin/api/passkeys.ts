import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { API } from '@contract/api-paths';
import type { AdminProfile } from '@contract/auth';
import type { Passkey, PasskeyList, PasskeyRegister, PasskeySignIn } from '@contract/passkeys';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

/** The signed-in admin's own passkeys. */
export const passkeysQueryOptions = () =>
  queryOptions({ queryKey: [...ADMIN_QUERY_SCOPE, 'passkeys'], queryFn: ({ signal }) => api<PasskeyList>(API.adminPasskeys, { signal }) });

export const usePasskeys = () => useQuery(passkeysQueryOptions());

/**
 * "Add a passkey": the server's options, the browser's ceremony (which may be cancelled: see
 * isCeremonyCancelled), then the answer with the name the admin gave.
 */
export async function addPasskey(name: string): Promise<Passkey> {
  const optionsJSON = await api<PublicKeyCredentialCreationOptionsJSON>(API.adminPasskeyOptions, { method: 'POST' });
  const response = await startRegistration({ optionsJSON });
  const body: PasskeyRegister = { name, response: response as PasskeyRegister['response'] };
  return api<Passkey>(API.adminPasskeys, { method: 'POST', body });
}

/** Sign in with a discoverable passkey: no username asked. */
export async function signInWithPasskey(): Promise<AdminProfile> {
  const optionsJSON = await api<PublicKeyCredentialRequestOptionsJSON>(API.passkeySignInOptions, { method: 'POST' });
  const response = await startAuthentication({ optionsJSON });
  const body: PasskeySignIn = { response: response as PasskeySignIn['response'] };
  return api<AdminProfile>(API.passkeySignIn, { method: 'POST', body });
}

/**
 * Whether the browser's WebAuthn ceremony ended without a credential: the admin closed or
 * cancelled the prompt, it timed out, or no passkey was picked (browsers say NotAllowedError for
 * all of these, on purpose), or the call was aborted.
 */
export function isCeremonyCancelled(err: unknown): boolean {
  const e = err as { name?: unknown; code?: unknown } | null;
  return e?.name === 'NotAllowedError' || e?.name === 'AbortError' || e?.code === 'ERROR_CEREMONY_ABORTED';
}

/** The browser already holds a passkey of this admin on this authenticator (excludeCredentials). */
export function isAlreadyRegistered(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED';
}

function useInvalidatePasskeys() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: passkeysQueryOptions().queryKey });
}

export function useAddPasskey() {
  const invalidate = useInvalidatePasskeys();
  return useMutation({ mutationFn: addPasskey, onSuccess: invalidate });
}

export function useRenamePasskey() {
  const invalidate = useInvalidatePasskeys();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) => api<Passkey>(API.adminPasskey(id), { method: 'PATCH', body: { name } }),
    onSuccess: invalidate,
  });
}

export function useRemovePasskey() {
  const invalidate = useInvalidatePasskeys();
  return useMutation({
    mutationFn: (id: number) => api<{ ok: true }>(API.adminPasskey(id), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export const usePasskeySignIn = () => useMutation({ mutationFn: signInWithPasskey });
