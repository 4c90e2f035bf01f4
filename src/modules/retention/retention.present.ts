import { Readable } from 'node:stream';
import Papa from 'papaparse';
import type { RetentionSettings } from './retention.repository.js';

/* The retention module's answers, mapped in one place. */

export function retentionSettingsView(s: RetentionSettings) {
  return { usage_raw_months: s.usageRawMonths, audit_log_months: s.auditLogMonths };
}

/** An export's pages of rows as CSV (a header line, then one line per row) or JSON lines. */
export function exportStream(pages: AsyncIterable<Record<string, unknown>[]>, format: 'csv' | 'jsonl'): Readable {
  async function* lines(): AsyncGenerator<string> {
    let columns: string[] | undefined;
    for await (const rows of pages) {
      if (format === 'jsonl') {
        yield rows.map((row) => `${JSON.stringify(row, jsonValue)}\n`).join('');
      } else {
        const header = columns === undefined;
        columns ??= Object.keys(rows[0]!);
        const data = rows.map((row) => columns!.map((c) => cell(row[c])));
        // escapeFormulae: a cell starting with = + - @ is not run as a formula by a spreadsheet
        yield `${Papa.unparse({ fields: columns, data }, { header, newline: '\n', escapeFormulae: true })}\n`;
      }
    }
  }
  return Readable.from(lines());
}

function jsonValue(_key: string, v: unknown): unknown {
  return v instanceof Date ? v.toISOString() : v;
}

/** A value as a CSV cell: timestamps in ISO 8601, JSON columns as JSON text. */
function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString();
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}
