import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { AdminProfile } from '@contract/auth';
import type { CodeBody, EnrolledSignIn, LoginSecondStep, RecoveryCodes, TotpDisable, TotpEnrolment, TwoFactorPolicy, TwoFactorStatus } from '@contract/two-factor';
import { api } from '@/lib/api';
import { ADMIN_QUERY_SCOPE } from './query-scope';

// Two-step sign-in: the second step and enrolment at sign-in (anonymous, with the challenge), the
// signed-in admin's TOTP (Security page) and the site's policy (super admins).

export const useLoginSecondStep = () =>
  useMutation({ mutationFn: (body: LoginSecondStep) => api<AdminProfile>(API.loginSecondStep, { method: 'POST', body }) });

export const useStartEnrolmentAtSignIn = () =>
  useMutation({ mutationFn: (challenge: string) => api<TotpEnrolment>(API.loginTotp, { method: 'POST', body: { challenge } }) });

export const useConfirmEnrolmentAtSignIn = () =>
  useMutation({
    mutationFn: (body: { challenge: string; code: string }) => api<EnrolledSignIn>(API.loginTotpConfirm, { method: 'POST', body }),
  });

export const twoFactorStatusQueryOptions = () =>
  queryOptions({
    queryKey: [...ADMIN_QUERY_SCOPE, 'two-factor'],
    queryFn: ({ signal }) => api<TwoFactorStatus>(API.totp, { signal }),
  });
export const useTwoFactorStatus = () => useQuery(twoFactorStatusQueryOptions());

/** After a change: the status is read again. */
function useTwoFactorMutation<TBody, TResult>(fn: (body: TBody) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => client.invalidateQueries({ queryKey: twoFactorStatusQueryOptions().queryKey }),
  });
}

export const useStartTotp = () => useMutation({ mutationFn: () => api<TotpEnrolment>(API.totp, { method: 'POST' }) });
export const useConfirmTotp = () => useTwoFactorMutation((body: CodeBody) => api<RecoveryCodes>(API.totpConfirm, { method: 'POST', body }));
export const useRegenerateRecoveryCodes = () =>
  useTwoFactorMutation((body: CodeBody) => api<RecoveryCodes>(API.totpRecoveryCodes, { method: 'POST', body }));
export const useDisableTotp = () => useTwoFactorMutation((body: TotpDisable) => api<{ ok: true }>(API.totp, { method: 'DELETE', body }));

const policyQueryOptions = () =>
  queryOptions({
    queryKey: [...ADMIN_QUERY_SCOPE, 'two-factor-policy'],
    queryFn: ({ signal }) => api<{ policy: TwoFactorPolicy }>(API.adminTwoFactorPolicy, { signal }),
  });
export const useTwoFactorPolicy = () => useQuery(policyQueryOptions());

export function useSetTwoFactorPolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (policy: TwoFactorPolicy) => api<{ policy: TwoFactorPolicy }>(API.adminTwoFactorPolicy, { method: 'PATCH', body: { policy } }),
    onSuccess: (data) => {
      client.setQueryData(policyQueryOptions().queryKey, data);
      return client.invalidateQueries({ queryKey: twoFactorStatusQueryOptions().queryKey });
    },
  });
}
