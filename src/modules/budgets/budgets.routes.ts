import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { customerOf } from '../../platform/http/auth.js';
import { Envelope, errorResponses, MessageOnly } from '../../platform/http/schemas.js';
import { budgetView } from './budgets.present.js';
import { Budget, BudgetBody } from './budgets.schemas.js';
import type { BudgetsService } from './budgets.service.js';

const tags = ['Billing'];

/** /api/billing/budget: the account's monthly budget and runway alert (docs/api.md, "Budgets"). */
export const budgetRoutes: FastifyPluginAsyncTypebox<{ budgets: BudgetsService; currency: string }> = async (app, { budgets, currency }) => {
  app.get(
    '/budget',
    {
      schema: {
        tags,
        summary: "My monthly budget, its thresholds and runway alert, with this month's spend and the thresholds crossed",
        response: { 200: Envelope(Budget), ...errorResponses(401, 404) },
      },
    },
    async (req) => ({ message: 'OK', data: budgetView(await budgets.get(customerOf(req).customerId), currency) }),
  );

  app.put(
    '/budget',
    {
      config: { activity: 'budget.updated' },
      schema: {
        tags,
        summary: 'Sets my monthly budget, its thresholds and the runway alert',
        description:
          "Each threshold (a percentage of the budget) notifies once per calendar month (UTC) when the month's charges reach it: in the app, by e-mail (when billing reminders are on) and by the budget.threshold_crossed webhook. A prepaid account is also warned (budget.runway_low) when its balance lasts fewer than runway_alert_days at the current hourly cost, once until the runway recovers. Evaluated after each hourly charge.",
        body: BudgetBody,
        response: { 200: Envelope(Budget), ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => ({ message: 'Budget saved', data: budgetView(await budgets.put(customerOf(req).customerId, req.body), currency) }),
  );

  app.delete(
    '/budget',
    {
      config: { activity: 'budget.deleted' },
      schema: { tags, summary: 'Removes my budget and runway alert (no more spend alerts)', response: { 200: MessageOnly, ...errorResponses(401, 404) } },
    },
    async (req) => {
      await budgets.remove(customerOf(req).customerId);
      return { message: 'Budget removed', data: null };
    },
  );
};
