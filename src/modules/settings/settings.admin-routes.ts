import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses, MessageOnly, StrictObject } from '../../platform/http/schemas.js';
import { actorOf } from '../audit/index.js';
import type { FirewallRuleType as FirewallRuleTypeRow } from './settings.repository.js';
import {
  Colors,
  FirewallRuleType,
  FirewallRuleTypeBody,
  FirewallRuleTypeParams,
  GeneralSettings,
  UpdateColorsBody,
  UpdateSettingsBody,
} from './settings.schemas.js';
import type { SettingsService } from './settings.service.js';

const tags = ['Backoffice: settings'];

const presentFirewall = (f: FirewallRuleTypeRow) => ({
  id: f.id,
  name: f.name,
  protocol: f.protocol,
  description: f.description,
  created_at: f.createdAt.toISOString(),
  updated_at: f.updatedAt.toISOString(),
});

export const settingsAdminRoutes: FastifyPluginAsyncTypebox<{ settings: SettingsService }> = async (app, { settings }) => {
  app.get(
    '',
    { config: { permission: 'view_settings' }, schema: { tags, summary: 'Application settings', response: { 200: Envelope(GeneralSettings), ...errorResponses(401, 403) } } },
    async () => ({ message: 'OK', data: await settings.general() }),
  );

  app.put(
    '/update',
    {
      config: { permission: 'manage_settings', audit: 'settings.updated' },
      schema: { tags, summary: 'Replaces the application settings (all four fields)', body: UpdateSettingsBody, response: { 200: Envelope(GeneralSettings), ...errorResponses(400, 401, 403) } },
    },
    async (req) => ({ message: 'Settings updated', data: await settings.updateGeneral(actorOf(req), req.body) }),
  );

  const StaffTwoFactor = Type.Object({ required: Type.Boolean({ description: 'staff whose role holds a permission that moves money must use TOTP 2FA' }) });
  app.get(
    '/staff-2fa',
    { config: { permission: 'view_settings' }, schema: { tags, summary: 'Whether staff who move money must use two-factor authentication', response: { 200: Envelope(StaffTwoFactor), ...errorResponses(401, 403) } } },
    async () => ({ message: 'OK', data: { required: await settings.staffTwoFactorRequired() } }),
  );

  app.put(
    '/staff-2fa',
    {
      config: { permission: 'manage_settings', audit: 'settings.staff_2fa_changed' },
      schema: { tags, summary: 'Require (or not) two-factor authentication of staff who move money', body: StrictObject({ required: Type.Boolean() }), response: { 200: Envelope(StaffTwoFactor), ...errorResponses(400, 401, 403) } },
    },
    async (req) => ({ message: 'Setting updated', data: await settings.setStaffTwoFactorRequired(actorOf(req), req.body.required) }),
  );

  app.get(
    '/color',
    { config: { permission: 'view_settings' }, schema: { tags, summary: 'Theme colors', response: { 200: Envelope(Colors), ...errorResponses(401, 403) } } },
    async () => ({ message: 'OK', data: await settings.colors() }),
  );

  app.post(
    '/color',
    {
      config: { permission: 'manage_settings', audit: 'settings.colors_updated' },
      schema: { tags, summary: 'Sets the theme colors (#RRGGBB)', body: UpdateColorsBody, response: { 200: Envelope(Colors), ...errorResponses(400, 401, 403) } },
    },
    async (req) => ({ message: 'Colors updated', data: await settings.updateColors(actorOf(req), req.body) }),
  );

  app.get(
    '/firewall-rule-types',
    {
      config: { permission: 'view_settings' },
      schema: { tags, summary: 'Firewall rule types', response: { 200: Envelope(Type.Array(FirewallRuleType)), ...errorResponses(401, 403) } },
    },
    async () => ({ message: 'OK', data: (await settings.listFirewallRuleTypes()).map(presentFirewall) }),
  );

  app.post(
    '/firewall-rule-types/create',
    {
      config: { permission: 'manage_settings', audit: 'firewall_rule_type.created' },
      schema: {
        tags,
        summary: 'Creates a firewall rule type (name unique, case-insensitive)',
        body: FirewallRuleTypeBody,
        response: { 201: Envelope(FirewallRuleType), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: 'Firewall rule type created', data: presentFirewall(await settings.createFirewallRuleType(actorOf(req), req.body)) }),
  );

  app.put(
    '/firewall-rule-types/:id/update',
    {
      config: { permission: 'manage_settings', audit: 'firewall_rule_type.updated' },
      schema: {
        tags,
        summary: 'Replaces a firewall rule type',
        params: FirewallRuleTypeParams,
        body: FirewallRuleTypeBody,
        response: { 200: Envelope(FirewallRuleType), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (req) => ({ message: 'Firewall rule type updated', data: presentFirewall(await settings.updateFirewallRuleType(actorOf(req), req.params.id, req.body)) }),
  );

  app.delete(
    '/firewall-rule-types/:id/delete',
    {
      config: { permission: 'manage_settings', audit: 'firewall_rule_type.deleted' },
      schema: { tags, summary: 'Deletes a firewall rule type', params: FirewallRuleTypeParams, response: { 200: MessageOnly, ...errorResponses(401, 403, 404) } },
    },
    async (req) => {
      await settings.deleteFirewallRuleType(actorOf(req), req.params.id);
      return { message: 'Firewall rule type deleted', data: null };
    },
  );
};
