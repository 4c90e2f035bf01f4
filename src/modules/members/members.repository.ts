import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { queryRows } from '../../platform/db/database.js';
import { apiTokens } from '../api-tokens/api-tokens.tables.js';
import { customerSessions } from '../auth/auth.tables.js';
import { customers } from '../customers/customers.tables.js';
import { accountInvitations, accountMembers, accountSettings } from './members.tables.js';

export type InvitationRow = typeof accountInvitations.$inferSelect;

export interface MemberRow {
  customerId: number;
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  twoFactor: boolean;
  createdAt: Date;
}

export interface MembershipRow {
  accountId: number;
  role: string;
  email: string;
  firstName: string;
  lastName: string;
  accountActive: boolean;
  /** who owns the account now (after a transfer, not its holder row's person) */
  ownerId: number | null;
  ownerEmail: string | null;
  ownerFirstName: string | null;
  ownerLastName: string | null;
}

const memberColumns = {
  customerId: accountMembers.customerId,
  email: customers.email,
  firstName: customers.firstName,
  lastName: customers.lastName,
  role: accountMembers.role,
  twoFactor: customers.is2faActive,
  createdAt: accountMembers.createdAt,
};

/** SQL of account membership: who belongs to which account, invitations, and ending a member's access. */
export class MembersRepository {
  async members(ex: Executor, accountId: number): Promise<MemberRow[]> {
    return ex
      .select(memberColumns)
      .from(accountMembers)
      .innerJoin(customers, eq(customers.id, accountMembers.customerId))
      .where(eq(accountMembers.accountId, accountId))
      .orderBy(asc(accountMembers.createdAt), asc(accountMembers.customerId));
  }

  /** Every member row of the account, locked: member changes of one account run one at a time. */
  async lockMembers(tx: Executor, accountId: number): Promise<{ customerId: number; role: string }[]> {
    return queryRows<{ customerId: number; role: string }>(
      tx,
      sql`select customer_id as "customerId", role from account_members where account_id = ${accountId} order by customer_id for update`,
    );
  }

  /** The person's role in the account, locked for share in the caller's transaction (a removal waits for it, or it sees the removal). */
  async roleForShare(tx: Executor, accountId: number, customerId: number): Promise<string | undefined> {
    const [row] = await queryRows<{ role: string }>(tx, sql`select role from account_members where account_id = ${accountId} and customer_id = ${customerId} for share`);
    return row?.role;
  }

  async roleOf(ex: Executor, accountId: number, customerId: number): Promise<string | undefined> {
    const [row] = await ex
      .select({ role: accountMembers.role })
      .from(accountMembers)
      .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.customerId, customerId)));
    return row?.role;
  }

  /** The accounts a person belongs to, with each account's holder (the customers row of the account). */
  async membershipsOf(ex: Executor, customerId: number): Promise<MembershipRow[]> {
    return queryRows<MembershipRow>(
      ex,
      sql`select m.account_id as "accountId", m.role, a.email, a.first_name as "firstName", a.last_name as "lastName", a.is_active as "accountActive",
            o.id as "ownerId", o.email as "ownerEmail", o.first_name as "ownerFirstName", o.last_name as "ownerLastName"
          from account_members m
          join customers a on a.id = m.account_id
          left join account_members om on om.account_id = m.account_id and om.role = 'owner'
          left join customers o on o.id = om.customer_id
          where m.customer_id = ${customerId}
          order by m.account_id`,
    );
  }

  async addMember(tx: Executor, row: { accountId: number; customerId: number; role: string; invitedBy: number; now: Date }): Promise<boolean> {
    const added = await tx
      .insert(accountMembers)
      .values({ accountId: row.accountId, customerId: row.customerId, role: row.role, invitedBy: row.invitedBy, createdAt: row.now, updatedAt: row.now })
      .onConflictDoNothing()
      .returning({ id: accountMembers.customerId });
    return added.length > 0;
  }

  async setRole(tx: Executor, accountId: number, customerId: number, role: string, now: Date): Promise<void> {
    await tx
      .update(accountMembers)
      .set({ role, updatedAt: now })
      .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.customerId, customerId)));
  }

  async removeMember(tx: Executor, accountId: number, customerId: number): Promise<boolean> {
    const gone = await tx
      .delete(accountMembers)
      .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.customerId, customerId)))
      .returning({ id: accountMembers.customerId });
    return gone.length > 0;
  }

  /** Ends the person's device sessions that act on the account (not their sessions elsewhere). */
  async endSessionsIn(tx: Executor, accountId: number, customerId: number, reason: string, now: Date): Promise<number> {
    const ended = await tx
      .update(customerSessions)
      .set({ revokedAt: now, revokeReason: reason })
      .where(and(eq(customerSessions.customerId, customerId), eq(customerSessions.accountId, accountId), isNull(customerSessions.revokedAt)))
      .returning({ id: customerSessions.id });
    return ended.length;
  }

  /** Revokes the person's live API tokens bound to the account. */
  async revokeTokensIn(tx: Executor, accountId: number, customerId: number, now: Date): Promise<number> {
    const revoked = await tx
      .update(apiTokens)
      .set({ revokedAt: now, revokedBy: 'customer' })
      .where(and(eq(apiTokens.customerId, customerId), eq(apiTokens.accountId, accountId), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    return revoked.length;
  }

  /** Points a device session at an account (null: the person's own). */
  async switchSession(tx: Executor, sessionId: string, customerId: number, accountId: number | null): Promise<boolean> {
    const done = await tx
      .update(customerSessions)
      .set({ accountId })
      .where(and(eq(customerSessions.id, sessionId), eq(customerSessions.customerId, customerId), isNull(customerSessions.revokedAt)))
      .returning({ id: customerSessions.id });
    return done.length > 0;
  }

  async customerByEmail(ex: Executor, email: string): Promise<{ id: number; email: string } | undefined> {
    const [row] = await ex.select({ id: customers.id, email: customers.email }).from(customers).where(sql`lower(${customers.email}) = lower(${email})`);
    return row;
  }

  async customer(ex: Executor, id: number): Promise<{ id: number; email: string; firstName: string; lastName: string } | undefined> {
    const [row] = await ex.select({ id: customers.id, email: customers.email, firstName: customers.firstName, lastName: customers.lastName }).from(customers).where(eq(customers.id, id));
    return row;
  }

  async insertInvitation(tx: Executor, row: typeof accountInvitations.$inferInsert): Promise<InvitationRow> {
    const [created] = await tx.insert(accountInvitations).values(row).returning();
    return created!;
  }

  /** Voids the open invitations of `kind` to the address (a new one replaces them). */
  async voidOpenInvitations(tx: Executor, accountId: number, kind: string, email: string, now: Date): Promise<void> {
    await tx
      .update(accountInvitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(accountInvitations.accountId, accountId),
          eq(accountInvitations.kind, kind),
          sql`lower(${accountInvitations.email}) = lower(${email})`,
          isNull(accountInvitations.acceptedAt),
          isNull(accountInvitations.revokedAt),
        ),
      );
  }

  async openInvitations(ex: Executor, accountId: number, now: Date): Promise<InvitationRow[]> {
    return ex
      .select()
      .from(accountInvitations)
      .where(
        and(
          eq(accountInvitations.accountId, accountId),
          eq(accountInvitations.kind, 'invite'),
          isNull(accountInvitations.acceptedAt),
          isNull(accountInvitations.revokedAt),
          gt(accountInvitations.expiresAt, now),
        ),
      )
      .orderBy(desc(accountInvitations.id));
  }

  async invitationBySecret(ex: Executor, secretHash: string, opts: { forUpdate?: boolean } = {}): Promise<InvitationRow | undefined> {
    const q = ex.select().from(accountInvitations).where(eq(accountInvitations.secretHash, secretHash));
    const [row] = opts.forUpdate ? await q.for('update') : await q;
    return row;
  }

  async revokeInvitation(tx: Executor, accountId: number, id: number, now: Date): Promise<boolean> {
    const done = await tx
      .update(accountInvitations)
      .set({ revokedAt: now })
      .where(and(eq(accountInvitations.id, id), eq(accountInvitations.accountId, accountId), eq(accountInvitations.kind, 'invite'), isNull(accountInvitations.acceptedAt), isNull(accountInvitations.revokedAt)))
      .returning({ id: accountInvitations.id });
    return done.length > 0;
  }

  async markAccepted(tx: Executor, id: number, by: number, now: Date): Promise<void> {
    await tx.update(accountInvitations).set({ acceptedAt: now, acceptedBy: by }).where(eq(accountInvitations.id, id));
  }

  async require2fa(ex: Executor, accountId: number): Promise<boolean> {
    const [row] = await ex.select({ on: accountSettings.require2fa }).from(accountSettings).where(eq(accountSettings.accountId, accountId));
    return row?.on ?? false;
  }

  /** When the account was closed (undefined: open). */
  async closedAt(ex: Executor, accountId: number): Promise<Date | undefined> {
    const [row] = await ex.select({ at: accountSettings.closedAt }).from(accountSettings).where(eq(accountSettings.accountId, accountId));
    return row?.at ?? undefined;
  }

  async markClosed(tx: Executor, accountId: number, by: number, now: Date): Promise<void> {
    await tx
      .insert(accountSettings)
      .values({ accountId, closedAt: now, closedBy: by, updatedAt: now })
      .onConflictDoUpdate({ target: accountSettings.accountId, set: { closedAt: now, closedBy: by, updatedAt: now } });
  }

  /** Ends every device session that acts on the account, whoever's (the owner's own sessions elsewhere stay). */
  async endAllSessionsIn(tx: Executor, accountId: number, reason: string, now: Date): Promise<number> {
    const ended = await tx
      .update(customerSessions)
      .set({ revokedAt: now, revokeReason: reason })
      .where(and(sql`coalesce(${customerSessions.accountId}, ${customerSessions.customerId}) = ${accountId}`, isNull(customerSessions.revokedAt)))
      .returning({ id: customerSessions.id });
    return ended.length;
  }

  /** Revokes every live API token bound to the account, whoever made it. */
  async revokeAllTokensIn(tx: Executor, accountId: number, now: Date): Promise<number> {
    const revoked = await tx
      .update(apiTokens)
      .set({ revokedAt: now, revokedBy: 'customer' })
      .where(and(sql`coalesce(${apiTokens.accountId}, ${apiTokens.customerId}) = ${accountId}`, isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    return revoked.length;
  }

  /** Removes every member of the account (the owner too) and voids its open invitations. */
  async removeAllMembers(tx: Executor, accountId: number, now: Date): Promise<number> {
    const gone = await tx.delete(accountMembers).where(eq(accountMembers.accountId, accountId)).returning({ id: accountMembers.customerId });
    await tx
      .update(accountInvitations)
      .set({ revokedAt: now })
      .where(and(eq(accountInvitations.accountId, accountId), isNull(accountInvitations.acceptedAt), isNull(accountInvitations.revokedAt)));
    return gone.length;
  }

  async setRequire2fa(tx: Executor, accountId: number, on: boolean, now: Date): Promise<void> {
    await tx
      .insert(accountSettings)
      .values({ accountId, require2fa: on, updatedAt: now })
      .onConflictDoUpdate({ target: accountSettings.accountId, set: { require2fa: on, updatedAt: now } });
  }
}
