import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses, MessageOnly } from '../../platform/http/schemas.js';
import { actorOf } from '../audit/index.js';
import { colorsView, firewallRuleTypeView, generalSettingsView, staffTwoFactorView } from './settings.present.js';
import {
  Colors,
  FirewallRuleType,
  FirewallRuleTypeBody,
  FirewallRuleTypeParams,
  GeneralSettings,
  UpdateColorsBody,
  UpdateSettingsBody,
  StaffTwoFactorBody,
  StaffTwoFactorPolicy,
} from './settings.schemas.js';
import type { SettingsService } from './settings.service.js';

const tags = ['Backoffice: settings'];

export const settingsAdminRoutes: FastifyPluginAsyncTypebox<{ settings: SettingsService }> = async (app, { settings }) => {
  app.get(
    '',
    { config: { permission: 'view_settings' }, schema: { tags, summary: 'Application settings', response: { 200: Envelope(GeneralSettings), ...errorResponses(401, 403) } } },
    async () => ({ message: 'OK', data: generalSettingsView(await settings.get()) }),
  );

  app.put(
    '/update',
    {
      config: { permission: 'manage_settings', audit: 'settings.updated' },
      schema: { tags, summary: 'Replaces the application settings (all four fields)', body: UpdateSettingsBody, response: { 200: Envelope(GeneralSettings), ...errorResponses(400, 401, 403) } },
    },
    async (req) => ({ message: 'Settings updated', data: generalSettingsView(await settings.updateGeneral(actorOf(req), req.body)) }),
  );

  app.get(
    '/staff-2fa',
    { config: { permission: 'view_settings' }, schema: { tags, summary: 'Which staff must use two-factor authentication', response: { 200: Envelope(StaffTwoFactorPolicy), ...errorResponses(401, 403) } } },
    async () => ({ message: 'OK', data: staffTwoFactorView(await settings.staffTwoFactorScope()) }),
  );

  app.put(
    '/staff-2fa',
    {
      config: { permission: 'manage_settings', audit: 'settings.staff_2fa_changed' },
      schema: {
        tags,
        summary: 'Require two-factor authentication of nobody, of the roles that move money, or of all staff; those without it are led through set-up at their next request',
        body: StaffTwoFactorBody,
        response: { 200: Envelope(StaffTwoFactorPolicy), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => ({ message: 'Setting updated', data: staffTwoFactorView(await settings.setStaffTwoFactor(actorOf(req), req.body)) }),
  );

  app.get(
    '/color',
    { config: { permission: 'view_settings' }, schema: { tags, summary: 'Theme colors', response: { 200: Envelope(Colors), ...errorResponses(401, 403) } } },
    async () => ({ message: 'OK', data: colorsView(await settings.get()) }),
  );

  app.post(
    '/color',
    {
      config: { permission: 'manage_settings', audit: 'settings.colors_updated' },
      schema: { tags, summary: 'Sets the theme colors (#RRGGBB)', body: UpdateColorsBody, response: { 200: Envelope(Colors), ...errorResponses(400, 401, 403) } },
    },
    async (req) => ({ message: 'Colors updated', data: colorsView(await settings.updateColors(actorOf(req), req.body)) }),
  );

  app.get(
    '/firewall-rule-types',
    {
      config: { permission: 'view_settings' },
      schema: { tags, summary: 'Firewall rule types', response: { 200: Envelope(Type.Array(FirewallRuleType)), ...errorResponses(401, 403) } },
    },
    async () => ({ message: 'OK', data: (await settings.listFirewallRuleTypes()).map(firewallRuleTypeView) }),
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
    async (req, reply) => reply.status(201).send({ message: 'Firewall rule type created', data: firewallRuleTypeView(await settings.createFirewallRuleType(actorOf(req), req.body)) }),
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
    async (req) => ({ message: 'Firewall rule type updated', data: firewallRuleTypeView(await settings.updateFirewallRuleType(actorOf(req), req.params.id, req.body)) }),
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
