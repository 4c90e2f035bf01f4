import { useQuery } from '@tanstack/react-query';
import { api, get } from '../../api/client';
import { keys } from '../../api/keys';

/**
 * The customer summary (balance, unread count); `fresh`: read again whenever the screen opens;
 * `enabled`: false until the browser is known to hold a session.
 */
export function useMe(fresh = false, enabled = true) {
  return useQuery({ queryKey: keys.me, queryFn: () => get(() => api.GET('/api/inf')), enabled, ...(fresh ? { refetchOnMount: 'always' as const } : {}) });
}
