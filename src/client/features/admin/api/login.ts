import { useMutation } from '@tanstack/react-query';
import { API } from '@contract/api-paths';
import type { AdminProfile, LoginBody } from '@contract/auth';
import { api } from '@/lib/api';

export const login = (body: LoginBody) => api<AdminProfile>(API.login, { method: 'POST', body });

export const useLogin = () => useMutation({ mutationFn: login });
