import { useQuery } from '@tanstack/react-query';
import { api, get } from '../../api/client';
import { keys } from '../../api/keys';
import { CUSTOMER_OPERATION_PERMISSIONS } from '../../api/permissions';

export type CustomerOperation = keyof typeof CUSTOMER_OPERATION_PERMISSIONS;

/** The accounts the person belongs to, the one this session acts on marked `current`. */
export function useAccounts(enabled = true) {
  return useQuery({ queryKey: keys.accounts, queryFn: () => get(() => api.GET('/api/accounts')), enabled });
}

/** The account this session acts on, with the person's role and permissions in it. */
export function useCurrentAccount(enabled = true) {
  const accounts = useAccounts(enabled);
  return accounts.data?.find((a) => a.current);
}

/**
 * Whether the person's role in the current account permits an API operation ("METHOD path" as the
 * client names it), from the member permission of each operation. Screens show only what the role
 * permits; the API still decides (a 403 shows its message).
 */
export function useMemberCan(enabled = true): (op: CustomerOperation) => boolean {
  const current = useCurrentAccount(enabled);
  return (op) => !current || current.permissions.includes(CUSTOMER_OPERATION_PERMISSIONS[op]);
}
