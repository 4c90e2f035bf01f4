import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { ValidationError } from '../../platform/errors.js';
import type { Actor, AuditService } from '../audit/index.js';
import type { CompanyDetails, CompanyRepository } from './company.repository.js';

export interface CompanyInput {
  legal_name: string;
  address: string;
  tax_number: string | null;
}

const MAX_ADDRESS_LINES = 6;

/** What the audit log keeps of a change. */
const snapshot = (c: CompanyDetails | undefined) => ({ legal_name: c?.legalName ?? null, address: c?.address ?? null, tax_number: c?.taxNumber ?? null });

/** The lines of an address as typed: trimmed, empty lines dropped. */
const addressLines = (address: string) =>
  address
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');

/**
 * The issuer of receipts and invoices (legal name, address, tax number), set by staff in the
 * settings; every PDF the platform issues prints it.
 */
export class CompanyService {
  constructor(
    private readonly db: Database,
    private readonly repo: CompanyRepository,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    /** printed while no details are saved */
    private readonly appName: () => Promise<string>,
  ) {}

  /** The saved details, undefined while none are saved. */
  get(): Promise<CompanyDetails | undefined> {
    return this.repo.get(this.db);
  }

  async update(actor: Actor, input: CompanyInput): Promise<CompanyDetails> {
    const lines = addressLines(input.address);
    if (lines.length > MAX_ADDRESS_LINES) throw new ValidationError('Validation failed', [{ field: 'address', message: `at most ${MAX_ADDRESS_LINES} lines` }]);
    const taxNumber = input.tax_number?.trim() || null;
    return this.db.transaction(async (tx) => {
      const before = await this.repo.get(tx, { forUpdate: true });
      const row = await this.repo.save(tx, { legalName: input.legal_name.trim(), address: lines.join('\n'), taxNumber, updatedAt: this.clock.now() });
      await this.audit.record(tx, { actor, action: 'settings.company_updated', targetType: 'settings', targetId: 'company', before: snapshot(before), after: snapshot(row) });
      return row;
    });
  }

  /** The issuer block of a document: the legal name, the address lines, the tax number when there is one. */
  async issuerLines(): Promise<string[]> {
    const c = await this.repo.get(this.db);
    if (!c) return [await this.appName()];
    return [c.legalName, ...addressLines(c.address), ...(c.taxNumber ? [`Tax number: ${c.taxNumber}`] : [])];
  }
}
