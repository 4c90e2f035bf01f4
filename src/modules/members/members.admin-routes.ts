import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses, IntId } from '../../platform/http/schemas.js';
import type { MembersService } from './members.service.js';

const tags = ['Backoffice: customers'];

const StaffMember = Type.Object({ customer_id: Type.Integer(), email: Type.String(), role: Type.String(), two_factor_enabled: Type.Boolean(), joined_at: Type.String() });
const StaffMembership = Type.Object({ account_id: Type.Integer(), email: Type.String({ description: "the account holder's e-mail" }), role: Type.String() });
const CustomerTeam = Type.Object({
  members: Type.Array(StaffMember, { description: "the people who may act on this customer's account, with their roles" }),
  memberships: Type.Array(StaffMembership, { description: 'the other accounts this customer (as a person) belongs to' }),
  require_2fa: Type.Boolean(),
  closed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'when the owner closed the account (then it has no members); null while open' }),
});

/** Mounted at /api/backoffice: a customer account's members and roles, for support. */
export const membersAdminRoutes: FastifyPluginAsyncTypebox<{ members: MembersService }> = async (app, { members }) => {
  app.get(
    '/customer/:id/members',
    {
      config: { permission: 'view_users' },
      schema: { tags, summary: "A customer account's members and roles, and the other accounts the customer belongs to", params: Type.Object({ id: IntId }), response: { 200: Envelope(CustomerTeam), ...errorResponses(400, 401, 403) } },
    },
    async (req) => {
      const id = req.params.id;
      const [team, accounts, closedAt] = await Promise.all([members.members(id), members.accounts(id, id), members.closedAt(id)]);
      return {
        message: 'OK',
        data: {
          members: team.members.map((m) => ({ customer_id: m.customerId, email: m.email, role: m.role, two_factor_enabled: m.twoFactor, joined_at: m.createdAt.toISOString() })),
          memberships: accounts.filter((a) => !a.own).map((a) => ({ account_id: a.accountId, email: a.email, role: a.role })),
          require_2fa: team.require2fa,
          closed_at: closedAt ? closedAt.toISOString() : null,
        },
      };
    },
  );
};
