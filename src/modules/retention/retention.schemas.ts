import { Type } from 'typebox';
import { Month, StrictObject } from '../../platform/http/schemas.js';

export const RetentionSettingsView = Type.Object({
  usage_raw_months: Type.Integer({ description: 'Usage records older than this many whole months are rolled up per meter and day, then dropped' }),
  audit_log_months: Type.Union([Type.Integer(), Type.Null()], { description: 'Audit log months older than this are dropped; null: kept forever' }),
});

export const RetentionSettingsBody = StrictObject({
  usage_raw_months: Type.Integer({ minimum: 2, maximum: 120 }),
  audit_log_months: Type.Union([Type.Integer({ minimum: 12, maximum: 240 }), Type.Null()]),
});

export const HistoryExportQuery = Type.Object({
  kind: Type.Union([Type.Literal('audit'), Type.Literal('ledger')], { description: 'audit: the audit log; ledger: the wallet ledger of every customer' }),
  month: Month,
  format: Type.Optional(Type.Union([Type.Literal('csv'), Type.Literal('jsonl')], { default: 'jsonl' })),
});
