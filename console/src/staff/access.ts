import { useQuery } from '@tanstack/react-query';
import { api, get } from '../api/client';
import { OPERATION_PERMISSIONS } from '../api/permissions';
import { keys } from '../api/keys';

export type Operation = keyof typeof OPERATION_PERMISSIONS;

export const staffKey = keys.staff.me;
/** The signed-in staff member; `enabled`: false reads only what another caller fetched. */
export function useStaff(enabled = true) {
  return useQuery({ queryKey: staffKey, queryFn: () => get(() => api.GET('/api/backoffice/admin/inf')), enabled });
}

/**
 * Whether the signed-in admin's role permits an API operation ("METHOD path" as the client names
 * it), from the permission the OpenAPI document gives each operation. Screens and buttons use it
 * to show only what the role permits; the API still decides (a 403 shows its message).
 */
export function useCan(): (op: Operation) => boolean {
  const me = useStaff(false).data;
  return (op) => !!me && me.permissions.includes(OPERATION_PERMISSIONS[op]);
}
