import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import { actorOf } from '../audit/index.js';
import { companyView } from './settings.present.js';
import { Company, UpdateCompanyBody } from './company.schemas.js';
import type { CompanyService } from './company.service.js';

const tags = ['Backoffice: settings'];

/** /api/backoffice/setting/company: the issuer every receipt and invoice PDF prints. */
export const companyAdminRoutes: FastifyPluginAsyncTypebox<{ company: CompanyService }> = async (app, { company }) => {
  app.get(
    '',
    { config: { permission: 'view_settings' }, schema: { tags, summary: 'The company that issues receipts and invoices', response: { 200: Envelope(Company), ...errorResponses(401, 403) } } },
    async () => ({ message: 'OK', data: companyView(await company.get()) }),
  );

  app.put(
    '',
    {
      config: { permission: 'manage_settings', audit: 'settings.company_updated' },
      schema: {
        tags,
        summary: 'Sets the legal name, address and tax number printed on every receipt and invoice (all three fields)',
        body: UpdateCompanyBody,
        response: { 200: Envelope(Company), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => ({ message: 'Company details updated', data: companyView(await company.update(actorOf(req), req.body)) }),
  );
};
