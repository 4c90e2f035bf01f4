import type { ConsoleAccess } from '../modules/compute/index.js';

/** Who answers whether a console's holder still has access, each from the database as it is now. */
export interface ConsoleAccessSources {
  /** staff: the session is alive, the admin not deleted, their role holds the permission (as the ticket stream asks) */
  staff: { stillHolds(adminId: number, sessionId: string, permission: 'operate_compute'): Promise<boolean> };
  /** a customer's device session */
  sessions: { stillLive(customerId: number, sessionId: string): Promise<boolean> };
  /** a customer's API token */
  apiTokens: { stillLive(customerId: number, tokenId: number): Promise<boolean> };
}

const TOKEN_SESSION = /^token:(\d+)$/;

/**
 * A console's holder, re-checked at each heartbeat of its WebSocket: a staff member by their session
 * and `operate_compute`, a customer by the session or API token the ticket was asked with (its
 * requester is `token:<id>` for a token). The sources are passed as a function because compute is
 * built before auth and API tokens.
 */
export function consoleAccessFlow(sources: () => ConsoleAccessSources): ConsoleAccess {
  return {
    async stillHolds({ customerId, adminId, requesterSession }) {
      const s = sources();
      if (adminId !== null) return s.staff.stillHolds(adminId, requesterSession, 'operate_compute');
      const token = TOKEN_SESSION.exec(requesterSession);
      if (token) return s.apiTokens.stillLive(customerId, Number(token[1]));
      return s.sessions.stillLive(customerId, requesterSession);
    },
  };
}
