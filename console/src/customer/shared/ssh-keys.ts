import { useQuery } from '@tanstack/react-query';
import { api, call, get } from '../../api/client';
import { keys } from '../../api/keys';

/** The customer's SSH keys (an account holds at most 50: one page of 100 has them all). */
export function useSshKeys() {
  return useQuery({ queryKey: keys.sshKeys, queryFn: async () => (await call(() => api.GET('/api/ssh-keys', { params: { query: { limit: 100 } } }))).data });
}

/** The OS images VMs can be created with, and the user each lets in over SSH. */
export function useOperatingSystems() {
  return useQuery({ queryKey: keys.operatingSystems, queryFn: () => get(() => api.GET('/api/compute/os')), staleTime: 600_000 });
}
