import { useMutation } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { LoginBody } from '@contract/auth';
import type { LoginResult } from '@contract/two-factor';
import { api } from '@/lib/api';

/** The profile (signed in), or a challenge when a second step is due (contract/two-factor.ts). */
export const login = (body: LoginBody) => api<LoginResult>(API.login, { method: 'POST', body });

export const useLogin = () => useMutation({ mutationFn: login });
