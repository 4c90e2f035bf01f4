import { createHash, randomBytes } from 'node:crypto';
import type { Actor, AuditLog } from '../../platform/audit-log.js';
import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { AppError, ConflictError, ForbiddenError, NotFoundError, UnauthenticatedError, ValidationError } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { noteActivityTarget } from '../../platform/audit-scope.js';
import { isMemberRole, rolePermissionsLost, roleAllows, type MemberRole } from './member-permissions.js';
import { accountClosedMail, invitationMail, ownershipConfirmMail, removedMail, roleChangedMail } from './members.mails.js';
import type { InvitationRow, MemberRow, MembersRepository, MembershipRow } from './members.repository.js';

/** An invitation (and an ownership confirmation) is good for 7 days, once. */
export const INVITATION_DAYS = 7;
const DAY_MS = 24 * 3600 * 1000;

/** Something that stands in the way of closing an account (src/flows/account-holdings.ts). */
export interface ClosureBlocker {
  kind: 'vms' | 'networks' | 'load_balancers' | 'buckets' | 'access_keys' | 'snapshots' | 'balance' | 'unpaid_invoices' | 'uninvoiced_usage';
  count?: number;
  amount?: string;
  message: string;
}

/** The port that says what an account still holds or owes (a flow over the resource and money modules). */
export interface AccountHoldings {
  blockersOf(accountId: number): Promise<ClosureBlocker[]>;
}

/** Who asks: the person and the account they act on, with their role in it. */
export interface MemberActor {
  accountId: number;
  personId: number;
  role: string;
  /** the device session, when the request has one (not an API token) */
  sessionId?: string;
}

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The team of a customer account: members, roles, invitations, switching between accounts. */
export class MembersService {
  constructor(
    private readonly db: Database,
    private readonly repo: MembersRepository,
    private readonly clock: Clock,
    private readonly mailer: Mailer,
    private readonly consoleUrl: string | undefined,
    private readonly auditLog: AuditLog,
    private readonly holdings: AccountHoldings,
  ) {}

  /** When the owner closed the account (undefined: open). */
  closedAt(accountId: number): Promise<Date | undefined> {
    return this.repo.closedAt(this.db, accountId);
  }

  /** What stands in the way of closing the account (empty: it can be closed), and when it was closed. */
  async closurePreview(accountId: number): Promise<{ blockers: ClosureBlocker[]; closedAt: Date | undefined }> {
    const [blockers, closedAt] = await Promise.all([this.holdings.blockersOf(accountId), this.repo.closedAt(this.db, accountId)]);
    return { blockers, closedAt };
  }

  /**
   * The owner closes the account (the route asked for a fresh re-authentication and the account's
   * e-mail typed again). Refused while it holds resources or owes money (409 ACCOUNT_NOT_EMPTY, the
   * blockers in `errors`). In one transaction, with the members locked: every session acting on it
   * ends, every token bound to it is revoked, every membership (the owner's too) and open
   * invitation goes, and it is marked closed; the people keep the other accounts they belong to.
   */
  async closeAccount(actor: MemberActor, confirmEmail: string, auditActor?: Actor): Promise<{ closedAt: Date; sessionsEnded: number; tokensRevoked: number; membersRemoved: number }> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const rows = await this.repo.lockMembers(tx, actor.accountId);
      if (rows.find((r) => r.customerId === actor.personId)?.role !== 'owner') throw new ForbiddenError('Only the owner can close the account');
      const account = (await this.repo.customer(tx, actor.accountId))!;
      if (confirmEmail.trim().toLowerCase() !== account.email.toLowerCase()) {
        throw new ValidationError('Type the e-mail address of the account to confirm', [{ field: 'confirm_email', message: "does not match the account's e-mail address" }]);
      }
      const blockers = await this.holdings.blockersOf(actor.accountId);
      if (blockers.length > 0) {
        throw new AppError(409, 'ACCOUNT_NOT_EMPTY', 'The account still holds resources or owes money', blockers.map((b) => ({ field: b.kind, message: b.message })));
      }
      // recorded while the owner is still a member, in the account closed
      await this.noteInAccount(tx, auditActor, actor.accountId, actor.personId, 'account.closed', { members: rows.length }, { type: 'account', id: actor.accountId });
      const sessionsEnded = await this.repo.endAllSessionsIn(tx, actor.accountId, 'account_closed', now);
      const tokensRevoked = await this.repo.revokeAllTokensIn(tx, actor.accountId, now);
      const membersRemoved = await this.repo.removeAllMembers(tx, actor.accountId, now);
      await this.repo.markClosed(tx, actor.accountId, actor.personId, now);
      // every member (the owner too) is told, in the transaction of the closure
      for (const r of rows) {
        const person = await this.repo.customer(tx, r.customerId);
        if (person) await this.mailer.queueMail(person.email, accountClosedMail({ account, owner: r.customerId === actor.personId }), tx);
      }
      return { closedAt: now, sessionsEnded, tokensRevoked, membersRemoved };
    });
  }

  /**
   * An entry in the activity log of `accountId` for what the person did there (switching to it,
   * leaving it): the request's actor, moved to that account and naming the person as its member.
   */
  private noteInAccount(tx: Executor, from: Actor | undefined, accountId: number, personId: number, action: string, after: Record<string, unknown>, target = { type: 'member', id: personId }): Promise<void> {
    const actor: Actor = { ...(from ?? { type: 'customer', id: null }), type: 'customer', id: accountId };
    if (personId !== accountId) actor.memberId = personId;
    else delete actor.memberId;
    return this.auditLog.write(tx, { actor, action, targetType: target.type, targetId: target.id, after }, 'change');
  }

  /** The accounts the person belongs to, the current one marked. */
  async accounts(personId: number, currentAccountId: number): Promise<(MembershipRow & { current: boolean; own: boolean })[]> {
    const rows = await this.repo.membershipsOf(this.db, personId);
    return rows.map((r) => ({ ...r, current: r.accountId === currentAccountId, own: r.accountId === personId }));
  }

  /** Points the session at another account the person belongs to (404 when they do not). */
  async switchTo(personId: number, sessionId: string | undefined, accountId: number, who?: { actor: Actor; fromAccountId: number }): Promise<MembershipRow> {
    if (!sessionId || sessionId.startsWith('token:')) throw new ForbiddenError('An API token is bound to one account; switch in a signed-in session', 'TOKEN_NOT_ALLOWED');
    return this.db.transaction(async (tx) => {
      const role = await this.repo.roleForShare(tx, accountId, personId);
      if (!role) throw new NotFoundError('Account');
      if (!(await this.repo.switchSession(tx, sessionId, personId, accountId === personId ? null : accountId))) throw new UnauthenticatedError('Your session has ended, please log in again');
      // the account switched to records who started acting on it (and from where)
      await this.noteInAccount(tx, who?.actor, accountId, personId, 'member.switched_in', { role, from_account_id: who?.fromAccountId ?? null });
      const row = (await this.repo.membershipsOf(tx, personId)).find((m) => m.accountId === accountId)!;
      return row;
    });
  }

  async members(accountId: number): Promise<{ members: MemberRow[]; invitations: InvitationRow[]; require2fa: boolean }> {
    const [members, invitations, require2fa] = await Promise.all([
      this.repo.members(this.db, accountId),
      this.repo.openInvitations(this.db, accountId, this.clock.now()),
      this.repo.require2fa(this.db, accountId),
    ]);
    return { members, invitations, require2fa };
  }

  /**
   * Mails an invitation to join the account with `role` (never owner: ownership moves by transfer).
   * An address that is already a member is a 409; a new invitation to an address replaces its open one.
   */
  async invite(actor: MemberActor, email: string, role: string): Promise<InvitationRow> {
    if (!isMemberRole(role) || role === 'owner') throw new ValidationError('Validation failed', [{ field: 'role', message: 'one of admin, billing, technical, read_only' }]);
    const now = this.clock.now();
    const secret = randomBytes(32).toString('base64url');
    return this.db.transaction(async (tx) => {
      await this.repo.lockMembers(tx, actor.accountId);
      const existing = await this.repo.customerByEmail(tx, email);
      if (existing && (await this.repo.roleOf(tx, actor.accountId, existing.id))) throw new ConflictError('This address is already a member of the account', 'ALREADY_MEMBER');
      await this.repo.voidOpenInvitations(tx, actor.accountId, 'invite', email, now);
      const row = await this.repo.insertInvitation(tx, {
        accountId: actor.accountId,
        kind: 'invite',
        email: email.trim(),
        role,
        secretHash: hashSecret(secret),
        invitedBy: actor.personId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_DAYS * DAY_MS),
      });
      noteActivityTarget(row.id);
      const account = await this.repo.customer(tx, actor.accountId);
      const inviter = await this.repo.customer(tx, actor.personId);
      await this.mailer.queueMail(row.email, invitationMail({ account: account!, inviter: inviter!, role, expiresAt: row.expiresAt, link: this.link('/invitation', secret), secret, existing: !!existing }), tx);
      return row;
    });
  }

  async revokeInvitation(accountId: number, id: number): Promise<void> {
    const done = await this.db.transaction((tx) => this.repo.revokeInvitation(tx, accountId, id, this.clock.now()));
    if (!done) throw new NotFoundError('Open invitation');
  }

  /** What an invitation offers, for the page the mailed link opens (no sign-in needed). */
  async preview(secret: string): Promise<{ invitation: InvitationRow; account: { email: string; firstName: string; lastName: string } }> {
    const inv = await this.repo.invitationBySecret(this.db, hashSecret(secret));
    this.usable(inv);
    const account = await this.repo.customer(this.db, inv!.accountId);
    return { invitation: inv!, account: account! };
  }

  private usable(inv: InvitationRow | undefined, kind = 'invite'): asserts inv is InvitationRow {
    if (!inv || inv.kind !== kind || inv.revokedAt) throw new NotFoundError('Invitation');
    if (inv.acceptedAt) throw new ConflictError('This invitation was already used', 'INVITATION_USED');
    if (inv.expiresAt.getTime() <= this.clock.now().getTime()) throw new AppError(410, 'INVITATION_EXPIRED', 'This invitation has expired: ask for a new one');
  }

  /**
   * The signed-in person accepts an invitation mailed to their address: once (a second use is 409),
   * within 7 days (410). The session is not switched: the person picks the account.
   */
  async accept(personId: number, secret: string): Promise<MembershipRow> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const inv = await this.repo.invitationBySecret(tx, hashSecret(secret), { forUpdate: true });
      this.usable(inv);
      const me = await this.repo.customer(tx, personId);
      if (!me || me.email.toLowerCase() !== inv.email.toLowerCase()) {
        throw new ForbiddenError(`This invitation was sent to another address: sign in as ${inv.email} to accept it`, 'INVITATION_OTHER_ADDRESS');
      }
      await this.repo.lockMembers(tx, inv.accountId);
      if (!(await this.repo.addMember(tx, { accountId: inv.accountId, customerId: personId, role: inv.role, invitedBy: inv.invitedBy, now }))) {
        throw new ConflictError('You are already a member of this account', 'ALREADY_MEMBER');
      }
      await this.repo.markAccepted(tx, inv.id, personId, now);
      noteActivityTarget(inv.accountId);
      return (await this.repo.membershipsOf(tx, personId)).find((m) => m.accountId === inv.accountId)!;
    });
  }

  /**
   * Sets a member's role. Nobody gets or loses owner here (ownership transfer does that); changes of
   * one account run one at a time (its member rows are locked). A member who lost any permission has
   * their sessions in the account ended at once; their tokens are capped by the new role at every request.
   */
  async changeRole(actor: MemberActor, memberId: number, role: string): Promise<{ role: MemberRole; sessionsEnded: number }> {
    if (!isMemberRole(role) || role === 'owner') throw new ValidationError('Validation failed', [{ field: 'role', message: 'one of admin, billing, technical, read_only (ownership moves by transfer)' }]);
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const rows = await this.repo.lockMembers(tx, actor.accountId);
      const mine = rows.find((r) => r.customerId === actor.personId)?.role;
      if (!mine || !roleAllows(mine, 'members:write')) throw new ForbiddenError('Your role no longer allows changing members');
      const target = rows.find((r) => r.customerId === memberId);
      if (!target || !isMemberRole(target.role)) throw new NotFoundError('Member');
      if (target.role === 'owner') throw new ConflictError("The owner's role changes only by an ownership transfer", 'OWNER_ROLE');
      await this.repo.setRole(tx, actor.accountId, memberId, role, now);
      const lost = rolePermissionsLost(target.role, role);
      const sessionsEnded = lost.length > 0 ? await this.repo.endSessionsIn(tx, actor.accountId, memberId, 'member_role_lowered', now) : 0;
      const account = await this.repo.customer(tx, actor.accountId);
      const person = await this.repo.customer(tx, memberId);
      if (person && account) await this.mailer.queueMail(person.email, roleChangedMail({ account, from: target.role, to: role }), tx);
      return { role, sessionsEnded };
    });
  }

  /**
   * Removes a member (the owner cannot be removed: transfer ownership first). In the same transaction
   * their sessions in the account end and their tokens of it are revoked: no request of theirs is
   * accepted after this commits (each request reads the membership; a write checks it again, locked,
   * in its own transaction).
   */
  async remove(actor: MemberActor, memberId: number, reason: 'removed' | 'left' = 'removed', auditActor?: Actor): Promise<{ sessionsEnded: number; tokensRevoked: number }> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const rows = await this.repo.lockMembers(tx, actor.accountId);
      const target = rows.find((r) => r.customerId === memberId);
      if (!target) throw new NotFoundError('Member');
      if (reason === 'removed') {
        const mine = rows.find((r) => r.customerId === actor.personId)?.role;
        if (!mine || !roleAllows(mine, 'members:write')) throw new ForbiddenError('Your role no longer allows removing members');
      }
      if (target.role === 'owner') throw new ConflictError('The owner cannot leave or be removed: transfer ownership first', 'LAST_OWNER');
      await this.repo.removeMember(tx, actor.accountId, memberId);
      const sessionsEnded = await this.repo.endSessionsIn(tx, actor.accountId, memberId, reason === 'left' ? 'member_left' : 'member_removed', now);
      const tokensRevoked = await this.repo.revokeTokensIn(tx, actor.accountId, memberId, now);
      // leaving is recorded in the account left (a removal is recorded by its route, in the same account)
      if (reason === 'left') await this.noteInAccount(tx, auditActor, actor.accountId, memberId, 'member.left', { role: target.role, sessions_ended: sessionsEnded, tokens_revoked: tokensRevoked });
      if (reason === 'removed') {
        const account = await this.repo.customer(tx, actor.accountId);
        const person = await this.repo.customer(tx, memberId);
        if (person && account) await this.mailer.queueMail(person.email, removedMail({ account }), tx);
      }
      return { sessionsEnded, tokensRevoked };
    });
  }

  /** The person leaves an account (not their own, which they own). */
  leave(personId: number, accountId: number, auditActor?: Actor): Promise<{ sessionsEnded: number; tokensRevoked: number }> {
    return this.remove({ accountId, personId, role: 'self' }, personId, 'left', auditActor);
  }

  async setRequire2fa(accountId: number, on: boolean): Promise<void> {
    await this.db.transaction((tx) => this.repo.setRequire2fa(tx, accountId, on, this.clock.now()));
  }

  /** Mails the owner a link that confirms handing ownership to another member (who must already be one). */
  async requestOwnershipTransfer(actor: MemberActor, memberId: number): Promise<{ expiresAt: Date }> {
    const now = this.clock.now();
    const secret = randomBytes(32).toString('base64url');
    return this.db.transaction(async (tx) => {
      const rows = await this.repo.lockMembers(tx, actor.accountId);
      if (rows.find((r) => r.customerId === actor.personId)?.role !== 'owner') throw new ForbiddenError('Only the owner can transfer ownership');
      const target = rows.find((r) => r.customerId === memberId);
      if (!target || memberId === actor.personId) throw new NotFoundError('Member');
      const owner = (await this.repo.customer(tx, actor.personId))!;
      const to = (await this.repo.customer(tx, memberId))!;
      await this.repo.voidOpenInvitations(tx, actor.accountId, 'ownership', owner.email, now);
      const row = await this.repo.insertInvitation(tx, {
        accountId: actor.accountId,
        kind: 'ownership',
        email: owner.email,
        role: 'owner',
        targetCustomerId: memberId,
        secretHash: hashSecret(secret),
        invitedBy: actor.personId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_DAYS * DAY_MS),
      });
      noteActivityTarget(memberId);
      const account = (await this.repo.customer(tx, actor.accountId))!;
      await this.mailer.queueMail(owner.email, ownershipConfirmMail({ account, to, link: this.link('/ownership', secret), secret, expiresAt: row.expiresAt }), tx);
      return { expiresAt: row.expiresAt };
    });
  }

  /** The owner confirms with the mailed token: the member becomes owner, the old owner an admin. */
  async confirmOwnershipTransfer(personId: number, secret: string): Promise<{ accountId: number; ownerId: number }> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const inv = await this.repo.invitationBySecret(tx, hashSecret(secret), { forUpdate: true });
      this.usable(inv, 'ownership');
      if (inv.invitedBy !== personId) throw new NotFoundError('Invitation');
      const rows = await this.repo.lockMembers(tx, inv.accountId);
      if (rows.find((r) => r.customerId === personId)?.role !== 'owner') throw new ForbiddenError('Only the owner can transfer ownership');
      if (!rows.some((r) => r.customerId === inv.targetCustomerId)) throw new ConflictError('The new owner is no longer a member of the account', 'NOT_A_MEMBER');
      await this.repo.setRole(tx, inv.accountId, inv.targetCustomerId!, 'owner', now);
      await this.repo.setRole(tx, inv.accountId, personId, 'admin', now);
      await this.repo.markAccepted(tx, inv.id, personId, now);
      noteActivityTarget(inv.targetCustomerId!);
      return { accountId: inv.accountId, ownerId: inv.targetCustomerId! };
    });
  }

  /**
   * In the transaction of a member's write: the membership is read again, locked for share, so a
   * removal or a role change that commits first makes the write fail (401 or 403) and roll back,
   * and one that comes later waits for the write.
   */
  async confirmStillAllowed(tx: Executor, accountId: number, personId: number, permission: string): Promise<void> {
    const role = await this.repo.roleForShare(tx, accountId, personId);
    if (!role) throw new UnauthenticatedError('You are no longer a member of this account');
    if (!roleAllows(role, permission)) throw new ForbiddenError(`Your role in this account (${role}) does not allow this`, 'ROLE_FORBIDDEN');
  }

  private link(path: string, secret: string): string | undefined {
    return this.consoleUrl ? `${this.consoleUrl}${path}?token=${encodeURIComponent(secret)}` : undefined;
  }
}
