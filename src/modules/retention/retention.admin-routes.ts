import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import { exportStream, retentionSettingsView } from './retention.present.js';
import { HistoryExportQuery, RetentionSettingsBody, RetentionSettingsView } from './retention.schemas.js';
import type { RetentionService } from './retention.service.js';

const Export = Type.Unsafe({ type: 'string', description: 'CSV (a header line, then one line per row) or JSON lines (one object per row), in id order' });

/** /api/backoffice/setting/retention and /api/backoffice/history/export. */
export const retentionAdminRoutes: FastifyPluginAsyncTypebox<{ retention: RetentionService }> = async (app, { retention }) => {
  app.get(
    '/setting/retention',
    {
      config: { permission: 'view_settings' },
      schema: { tags: ['Backoffice settings'], summary: 'How long usage records and the audit log are kept', response: { 200: Envelope(RetentionSettingsView), ...errorResponses(401, 403) } },
    },
    async () => ({ message: 'OK', data: retentionSettingsView(await retention.settings()) }),
  );
  app.put(
    '/setting/retention',
    {
      config: { permission: 'manage_settings', audit: 'settings.retention_updated' },
      schema: {
        tags: ['Backoffice settings'],
        summary: 'Change how long usage records (rolled up per meter and day after) and the audit log are kept',
        body: RetentionSettingsBody,
        response: { 200: Envelope(RetentionSettingsView), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => ({
      message: 'Retention settings updated',
      data: retentionSettingsView(await retention.updateSettings({ usageRawMonths: req.body.usage_raw_months, auditLogMonths: req.body.audit_log_months })),
    }),
  );
  app.get(
    '/history/export',
    {
      config: { permission: 'export_history' },
      schema: {
        tags: ['Backoffice: audit'],
        summary: 'One month of the audit log or the wallet ledger as CSV or JSON lines, streamed',
        produces: ['application/x-ndjson', 'text/csv'],
        querystring: HistoryExportQuery,
        response: { 200: Export, ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const format = req.query.format ?? 'jsonl';
      const { pages, filename } = retention.exportMonth(req.query.kind, req.query.month);
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}.${format}"`)
        .send(exportStream(pages, format));
    },
  );
};
