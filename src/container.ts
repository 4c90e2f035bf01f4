import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from './config/index.js';
import { systemClock, type Clock } from './platform/clock.js';
import { openDatabase, type Database, type DatabaseHandle } from './platform/db/database.js';
import { EventBus } from './platform/events/event-bus.js';
import { createMetricsRegistry } from './platform/http/metrics.js';
import { Mailer } from './platform/mail/mailer.js';
import { JobQueue } from './platform/queue/queue.js';
import { PostgresRateLimits } from './platform/rate-limit/rate-limit.js';
import { LookupsRepository, LookupsService } from './modules/lookups/index.js';
import { SettingsRepository, SettingsService } from './modules/settings/index.js';
import { AuditRepository, AuditService } from './modules/audit/index.js';
import {
  AdminAuthService,
  AdminSessionsRepository,
  AdminsRepository,
  AdminsService,
  AdminTokens,
  bootstrapFirstAdmin,
  CookieAdminAuthenticator,
  RolesRepository,
  RolesService,
} from './modules/admins/index.js';
import { JobsAdminService } from './modules/jobs/index.js';
import { CustomerAdminService } from './modules/customer-admin/index.js';
import type { AdminAuthenticator } from './platform/http/auth.js';
import {
  AuthRepository,
  AuthService,
  ChangeEmailService,
  CookieCustomerAuthenticator,
  CustomerTokens,
  SessionService,
  SessionsRepository,
  TwoFactorService,
} from './modules/auth/index.js';
import {
  CustomersRepository,
  CustomersService,
  noNotifications,
  noResourceUsage,
  type BalanceReader,
  type ResourceUsageReader,
} from './modules/customers/index.js';
import { housekeepingJob } from './platform/housekeeping.js';
import { IdempotencyStore } from './platform/idempotency/idempotency.js';
import { createPaymentGateways, type PaymentGateways } from './integrations/payment-gateways/index.js';
import { WalletAdjustmentsService, WalletRepository, WalletService } from './modules/wallet/index.js';
import {
  BillingRepository,
  callbackRetentionJob,
  CouponsRepository,
  CouponsService,
  DepositsService,
  SandboxPaymentsService,
  TopupPaymentsService,
  seedPaymentMethods,
} from './modules/billing/index.js';

export interface ContainerOptions {
  clock?: Clock;
  log: Logger;
  /** Faster job polling for tests. */
  jobPollingIntervalSeconds?: number;
  /** Apply migrations and seeds on start (default true). */
  migrate?: boolean;
  /** Do not create the first Super Admin on an empty database (CLI tools). */
  skipBootstrapAdmin?: boolean;
  /** Embedded database: start from this data folder tarball (tests start from a migrated one). */
  pgliteSnapshot?: Blob;
  /** Embedded database: a fresh data folder starts as a copy of this one (platform/db/embedded-template.ts). */
  pgliteTemplate?: string;
}

export interface Services {
  settings: SettingsService;
  lookups: LookupsService;
  audit: AuditService;
  roles: RolesService;
  admins: AdminsService;
  adminAuth: AdminAuthService;
  adminAuthenticator: AdminAuthenticator;
  jobsAdmin: JobsAdminService;
  customerAdmin: CustomerAdminService;
  // identity (customer side)
  auth: AuthService;
  sessions: SessionService;
  twoFactor: TwoFactorService;
  changeEmail: ChangeEmailService;
  customerAuthenticator: CookieCustomerAuthenticator;
  customers: CustomersService;
  // money (wallet, top-ups)
  wallet: WalletService;
  coupons: CouponsService;
  deposits: DepositsService;
  topupPayments: TopupPaymentsService;
  sandboxPayments: SandboxPaymentsService;
  walletAdjustments: WalletAdjustmentsService;
}

export interface Container {
  config: Config;
  clock: Clock;
  log: Logger;
  database: DatabaseHandle;
  db: Database;
  queue: JobQueue;
  events: EventBus;
  mailer: Mailer;
  metrics: Registry;
  gateways: PaymentGateways;
  idempotency: IdempotencyStore;
  /** the per-IP rate limits' counters, shared by every API process */
  rateLimits: PostgresRateLimits;
  services: Services;
  /** Starts the job workers and schedules in this process. */
  startWorker(): Promise<void>;
  close(): Promise<void>;
}

/** Builds everything once: the API, the worker and the tests share this. */
export async function buildContainer(config: Config, opts: ContainerOptions): Promise<Container> {
  const clock = opts.clock ?? systemClock;
  const log = opts.log;
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, waitMs: config.databaseWaitMs, log: opts.log, ...(opts.pgliteSnapshot ? { snapshot: opts.pgliteSnapshot } : {}), ...(opts.pgliteTemplate ? { template: opts.pgliteTemplate } : {}) });
  try {
    if (opts.migrate !== false) await database.migrate();
    const db = database.db;
    const queue = new JobQueue(database, log, { pollingIntervalSeconds: opts.jobPollingIntervalSeconds ?? 2 });
    const events = new EventBus(database, log);
    const mailer = new Mailer(db, queue, clock, log, { smtpUrl: config.smtpUrl, from: config.mailFrom, logBodies: config.nodeEnv !== 'production' });

    const audit = new AuditService(db, new AuditRepository(), clock);
    const settings = new SettingsService(db, new SettingsRepository(), audit, clock);
    const lookups = new LookupsService(db, new LookupsRepository(), settings);

    const adminsRepo = new AdminsRepository();
    const rolesRepo = new RolesRepository();
    const adminSessions = new AdminSessionsRepository();
    const roles = new RolesService(db, rolesRepo, adminsRepo, audit);
    const admins = new AdminsService(db, adminsRepo, rolesRepo, adminSessions, audit, mailer, clock);
    const adminAuth = new AdminAuthService(db, adminsRepo, adminSessions, roles, audit, new AdminTokens(config.jwtSecret), clock);
    const jobsAdmin = new JobsAdminService(db, queue, admins, audit, clock);
    queue.register(adminAuth.pruneJob);

    // Money: wallet ledger, top-ups, gateways (issue 4)
    const idempotency = new IdempotencyStore(db);
    const rateLimits = new PostgresRateLimits(db, clock);
    queue.register(rateLimits.pruneJob);
    queue.register(housekeepingJob({ idempotency, queue, clock }));
    const gateways = createPaymentGateways({
      mode: config.paymentMode,
      clock,
      publicUrl: config.publicUrl,
      pgone: { merchantCode: config.pgoneMerchantCode, apiKey: config.pgoneApiKey, baseUrl: config.pgoneBaseUrl },
      pgtwo: { callbackSecret: config.pgtwoCallbackSecret, apiKey: config.pgtwoApiKey, baseUrl: config.pgtwoBaseUrl },
    });
    if (!config.smtpUrl && config.nodeEnv === 'production') {
      log.warn('SMTP_URL is not set: mail stays in the mail_outbox table and is not sent');
    }
    if (!config.metricsToken && config.nodeEnv === 'production') {
      log.warn('METRICS_TOKEN is not set: GET /metrics is not served; set it to scrape with Authorization: Bearer <token>');
    }
    const wallet = new WalletService(db, new WalletRepository());
    const billingRepo = new BillingRepository();
    const coupons = new CouponsService(db, new CouponsRepository(), clock);
    const deposits = new DepositsService(db, billingRepo, coupons, gateways, idempotency, clock, {
      currency: config.currency,
      expiryHours: config.topupExpiryHours,
    });
    const topupPayments = new TopupPaymentsService(db, billingRepo, wallet, coupons, gateways, queue, mailer, clock, log);
    const sandboxPayments = new SandboxPaymentsService(db, billingRepo, gateways, clock, log, config.publicUrl);
    const walletAdjustments = new WalletAdjustmentsService(db, wallet, idempotency, audit);
    queue.register(topupPayments.creditJob, topupPayments.expireJob, topupPayments.recreditJob);
    queue.register(callbackRetentionJob({ db, repo: billingRepo, clock }));

    // identity (customer side)
    const linkBase = config.frontendUrl ?? config.publicUrl;
    const authRepo = new AuthRepository();
    const customerTokens = new CustomerTokens(config.jwtSecret, clock);
    const sessions = new SessionService(db, new SessionsRepository(), authRepo, customerTokens, clock);
    queue.register(sessions.pruneJob);
    const auth = new AuthService(db, authRepo, sessions, customerTokens, mailer, clock, { base: linkBase, encryptionKey: config.encryptionKey });
    const twoFactor = new TwoFactorService(db, authRepo, customerTokens, mailer, clock, { encryptionKey: config.encryptionKey, issuer: 'Cloud Platform' });
    const changeEmail = new ChangeEmailService(db, authRepo, sessions, mailer, clock, { linkBase, otpKey: config.jwtSecret });
    const customerAuthenticator = new CookieCustomerAuthenticator(sessions);
    // Ports the money and compute branches replace with their own readers.
    const balances: BalanceReader = wallet;
    const resourceUsage: ResourceUsageReader = noResourceUsage;
    const customers = new CustomersService(
      db,
      new CustomersRepository(),
      lookups,
      { balances, usage: resourceUsage, notifications: noNotifications, sessionLimits: sessions },
      clock,
    );

    const customerAdmin = new CustomerAdminService(db, customers, sessions, twoFactor, audit, mailer);

    if (opts.migrate !== false) {
      await settings.seed();
      await lookups.seed();
      await roles.seed();
      if (!opts.skipBootstrapAdmin) await bootstrapFirstAdmin(admins, {
        email: config.bootstrapAdminEmail,
        password: config.bootstrapAdminPassword,
        embeddedDefault: config.databaseUrl === undefined,
        log,
      });
      await seedPaymentMethods(db, billingRepo);
    }
    await queue.start();

    return {
      config,
      clock,
      log,
      database,
      db,
      queue,
      events,
      mailer,
      metrics: createMetricsRegistry(),
      gateways,
      idempotency,
      rateLimits,
      services: {
        settings,
        lookups,
        audit,
        roles,
        admins,
        adminAuth,
        adminAuthenticator: new CookieAdminAuthenticator(adminAuth),
        jobsAdmin,
        customerAdmin,
        auth,
        sessions,
        twoFactor,
        changeEmail,
        customerAuthenticator,
        customers,
        wallet,
        coupons,
        deposits,
        topupPayments,
        sandboxPayments,
        walletAdjustments,
      },
      startWorker: () => queue.work(),
      async close() {
        await queue.stop();
        mailer.close();
        await database.close();
      },
    };
  } catch (err) {
    await database.close().catch(() => undefined);
    throw err;
  }
}
