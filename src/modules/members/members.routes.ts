import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../platform/audit-log.js';
import { customerOf, personOf } from '../../platform/http/auth.js';
import { Envelope, errorResponses, MessageOnly } from '../../platform/http/schemas.js';
import { ROLE_PERMISSIONS, isMemberRole, type MemberRole } from './member-permissions.js';
import type { InvitationRow, MemberRow, MembershipRow } from './members.repository.js';
import {
  AccountEntry,
  AccountParams,
  CloseBody,
  Closed,
  CloseHeaders,
  ClosurePreview,
  InvitationParams,
  InvitationPreview,
  InviteBody,
  Invitation,
  MemberGone,
  MemberList,
  MemberParams,
  RoleBody,
  RoleChanged,
  Settings,
  SettingsBody,
  SwitchBody,
  TokenBody,
  TransferBody,
  TransferDone,
  TransferRequested,
} from './members.schemas.js';
import type { MemberActor, MembersService } from './members.service.js';
import type { SudoCheck } from '../api-tokens/index.js';

const tags = ['Teams'];

const accountView = (r: MembershipRow & { current: boolean; own: boolean }) => ({
  account_id: r.accountId,
  name: `${r.firstName} ${r.lastName}`.trim(),
  email: r.email,
  role: r.role as MemberRole,
  permissions: isMemberRole(r.role) ? [...ROLE_PERMISSIONS[r.role]] : [],
  current: r.current,
  own: r.own,
  owner: r.ownerId === null ? null : { customer_id: r.ownerId, name: `${r.ownerFirstName ?? ''} ${r.ownerLastName ?? ''}`.trim(), email: r.ownerEmail ?? '' },
  is_active: r.accountActive,
});
const memberView = (m: MemberRow) => ({
  customer_id: m.customerId,
  email: m.email,
  first_name: m.firstName,
  last_name: m.lastName,
  role: m.role as MemberRole,
  two_factor_enabled: m.twoFactor,
  joined_at: m.createdAt.toISOString(),
});
const invitationView = (i: InvitationRow) => ({
  id: i.id,
  email: i.email,
  role: i.role as MemberRole,
  invited_by: i.invitedBy,
  created_at: i.createdAt.toISOString(),
  expires_at: i.expiresAt.toISOString(),
});

function actorOfRequest(req: Parameters<typeof customerOf>[0]): MemberActor {
  const c = customerOf(req);
  return { accountId: c.customerId, personId: c.personId ?? c.customerId, role: c.role ?? 'owner', sessionId: c.sessionId };
}

/** /api/accounts and /api/invitations: the person's own memberships (every role). */
export const accountsRoutes: FastifyPluginAsyncTypebox<{ members: MembersService }> = async (app, { members }) => {
  app.get('/accounts', { schema: { tags, summary: 'The accounts I belong to, with my role in each; `current` is the one this session acts on', response: { 200: Envelope(Type.Array(AccountEntry)), ...errorResponses(401) } } }, async (req) => ({
    message: 'OK',
    data: (await members.accounts(personOf(req), customerOf(req).customerId)).map(accountView),
  }));

  app.post(
    '/accounts/switch',
    { config: { activity: false }, schema: { tags, summary: 'Makes this session act on another account I belong to (sessions only: a token stays bound to its account); recorded as member.switched_in in that account\'s activity log', body: SwitchBody, response: { 200: Envelope(AccountEntry), ...errorResponses(400, 401, 403, 404) } } },
    async (req) => {
      const row = await members.switchTo(personOf(req), customerOf(req).sessionId, req.body.account_id, { actor: actorOf(req), fromAccountId: customerOf(req).customerId });
      return { message: 'Switched', data: accountView({ ...row, current: true, own: row.accountId === personOf(req) }) };
    },
  );

  app.delete(
    '/accounts/:account_id/membership',
    { config: { activity: false }, schema: { tags, summary: 'Leaves a team account (the owner cannot leave: 409 LAST_OWNER); recorded as member.left in that account\'s activity log', params: AccountParams, response: { 200: Envelope(MemberGone), ...errorResponses(400, 401, 404, 409) } } },
    async (req) => {
      const r = await members.leave(personOf(req), req.params.account_id, actorOf(req));
      return { message: 'You left the account', data: { sessions_ended: r.sessionsEnded, tokens_revoked: r.tokensRevoked } };
    },
  );

  app.post(
    '/accounts/ownership-transfer/confirm',
    { config: { activity: 'member.ownership_transferred' }, schema: { tags, summary: 'The owner confirms a transfer with the mailed token: the member becomes owner, you an admin', body: TokenBody, response: { 200: Envelope(TransferDone), ...errorResponses(400, 401, 403, 404, 409, 410) } } },
    async (req) => {
      const r = await members.confirmOwnershipTransfer(personOf(req), req.body.token);
      return { message: 'Ownership transferred', data: { account_id: r.accountId, owner_id: r.ownerId } };
    },
  );

  app.post(
    '/invitations/preview',
    { config: { public: true }, schema: { tags, summary: 'What an invitation offers (no sign-in): the account, the role, the address it was sent to', body: TokenBody, response: { 200: Envelope(InvitationPreview), ...errorResponses(400, 404, 409, 410) } } },
    async (req) => {
      const { invitation, account } = await members.preview(req.body.token);
      return {
        message: 'OK',
        data: { account_name: `${account.firstName} ${account.lastName}`.trim() || account.email, email: invitation.email, role: invitation.role as MemberRole, expires_at: invitation.expiresAt.toISOString() },
      };
    },
  );

  app.post(
    '/invitations/accept',
    { config: { activity: 'member.joined' }, schema: { tags, summary: 'Accepts an invitation sent to my address (once, within 7 days)', body: TokenBody, response: { 200: Envelope(AccountEntry), ...errorResponses(400, 401, 403, 404, 409, 410) } } },
    async (req) => {
      const row = await members.accept(personOf(req), req.body.token);
      return { message: 'You joined the account', data: accountView({ ...row, current: false, own: false }) };
    },
  );
};

/** /api/members: the team of the account acted on (owners and admins change it). */
export const membersRoutes: FastifyPluginAsyncTypebox<{ members: MembersService; sudo: SudoCheck }> = async (app, { members, sudo }) => {
  app.get(
    '/account-closure',
    { schema: { tags, summary: 'Owner: whether the account can be closed, and what must go first (resources, unsettled money)', response: { 200: Envelope(ClosurePreview), ...errorResponses(401, 403) } } },
    async (req) => {
      const r = await members.closurePreview(customerOf(req).customerId);
      return {
        message: 'OK',
        data: { can_close: r.blockers.length === 0 && !r.closedAt, blockers: r.blockers.map((b) => ({ ...b })), closed_at: r.closedAt ? r.closedAt.toISOString() : null },
      };
    },
  );

  app.post(
    '/account-closure',
    {
      config: { activity: false },
      schema: {
        tags,
        summary: "Owner: closes the account for good (X-Access-Token from sudo, and the account's e-mail typed again)",
        description:
          "Refused with 409 ACCOUNT_NOT_EMPTY while it holds VMs, networks, load balancers, buckets, access keys or snapshots, or owes money (a negative balance, unpaid or not yet invoiced postpaid usage); `errors` lists each. Closing ends every session acting on the account, revokes its API tokens and removes every member (the owner too); each person keeps the other accounts they belong to. 403 SUDO_REQUIRED without a fresh sudo token.",
        headers: CloseHeaders,
        body: CloseBody,
        response: { 200: Envelope(Closed), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (req) => {
      const c = customerOf(req);
      const header = req.headers['x-access-token'];
      sudo.requireSudo(c.personId ?? c.customerId, c.sessionId, typeof header === 'string' ? header : undefined);
      const r = await members.closeAccount(actorOfRequest(req), req.body.confirm_email, actorOf(req));
      return {
        message: 'The account is closed',
        data: { closed_at: r.closedAt.toISOString(), sessions_ended: r.sessionsEnded, tokens_revoked: r.tokensRevoked, members_removed: r.membersRemoved },
      };
    },
  );

  app.get('', { schema: { tags, summary: 'The members of this account, their roles and open invitations', response: { 200: Envelope(MemberList), ...errorResponses(401, 403) } } }, async (req) => {
    const r = await members.members(customerOf(req).customerId);
    return { message: 'OK', data: { members: r.members.map(memberView), invitations: r.invitations.map(invitationView), require_2fa: r.require2fa } };
  });

  app.post(
    '/invitations',
    { config: { activity: 'member.invited' }, schema: { tags, summary: 'Mails an invitation to join this account with a role (7 days, single use)', body: InviteBody, response: { 201: Envelope(Invitation), ...errorResponses(400, 401, 403, 409) } } },
    async (req, reply) => reply.status(201).send({ message: 'Invitation sent', data: invitationView(await members.invite(actorOfRequest(req), req.body.email, req.body.role)) }),
  );

  app.delete(
    '/invitations/:id',
    { config: { activity: 'member.invitation_revoked' }, schema: { tags, summary: 'Withdraws an open invitation', params: InvitationParams, response: { 200: MessageOnly, ...errorResponses(400, 401, 403, 404) } } },
    async (req) => {
      await members.revokeInvitation(customerOf(req).customerId, req.params.id);
      return { message: 'Invitation withdrawn', data: null };
    },
  );

  app.get('/settings', { schema: { tags, summary: 'The rules for members of this account', response: { 200: Envelope(Settings), ...errorResponses(401, 403) } } }, async (req) => ({
    message: 'OK',
    data: { require_2fa: (await members.members(customerOf(req).customerId)).require2fa },
  }));

  app.patch(
    '/settings',
    { config: { activity: 'member.settings_changed' }, schema: { tags, summary: 'Owner: require 2FA of every member', body: SettingsBody, response: { 200: Envelope(Settings), ...errorResponses(400, 401, 403) } } },
    async (req) => {
      await members.setRequire2fa(customerOf(req).customerId, req.body.require_2fa);
      return { message: 'Saved', data: { require_2fa: req.body.require_2fa } };
    },
  );

  app.post(
    '/ownership-transfer',
    { config: { activity: 'member.ownership_requested' }, schema: { tags, summary: 'Owner: mails you a link that confirms making another member the owner', body: TransferBody, response: { 202: Envelope(TransferRequested), ...errorResponses(400, 401, 403, 404) } } },
    async (req, reply) => {
      const r = await members.requestOwnershipTransfer(actorOfRequest(req), req.body.customer_id);
      return reply.status(202).send({ message: 'Check your mail to confirm the transfer', data: { expires_at: r.expiresAt.toISOString() } });
    },
  );

  app.patch(
    '/:customer_id',
    { config: { activity: 'member.role_changed' }, schema: { tags, summary: "Changes a member's role (not the owner's); a member who loses a permission is signed out of this account", params: MemberParams, body: RoleBody, response: { 200: Envelope(RoleChanged), ...errorResponses(400, 401, 403, 404, 409) } } },
    async (req) => {
      const r = await members.changeRole(actorOfRequest(req), req.params.customer_id, req.body.role);
      return { message: 'Role changed', data: { role: r.role, sessions_ended: r.sessionsEnded } };
    },
  );

  app.delete(
    '/:customer_id',
    { config: { activity: 'member.removed' }, schema: { tags, summary: 'Removes a member: their sessions in this account end and their tokens for it are revoked at once', params: MemberParams, response: { 200: Envelope(MemberGone), ...errorResponses(400, 401, 403, 404, 409) } } },
    async (req) => {
      const r = await members.remove(actorOfRequest(req), req.params.customer_id);
      return { message: 'Member removed', data: { sessions_ended: r.sessionsEnded, tokens_revoked: r.tokensRevoked } };
    },
  );
};
