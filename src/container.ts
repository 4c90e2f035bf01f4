import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from './config/index.js';
import { systemClock, type Clock } from './platform/clock.js';
import { openDatabase, seedFingerprint, type Database, type DatabaseHandle } from './platform/db/database.js';
import { EventBus } from './platform/events/event-bus.js';
import { createMetricsRegistry, registerReadGauge } from './platform/http/metrics.js';
import { Mailer } from './platform/mail/mailer.js';
import { JobQueue } from './platform/queue/queue.js';
import { PostgresRateLimits } from './platform/rate-limit/rate-limit.js';
import { AccountLock } from './platform/account-lock/account-lock.js';
import { RefreshTokens } from './platform/refresh-tokens/refresh-tokens.js';
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
  StaffTwoFactorService,
} from './modules/admins/index.js';
import { JobsAdminService } from './modules/jobs/index.js';
import { CustomerAdminService } from './modules/customer-admin/index.js';
import type { AdminAuthenticator, CustomerAuthenticator } from './platform/http/auth.js';
import {
  AuthRepository,
  AuthService,
  ChangeEmailService,
  CookieCustomerAuthenticator,
  CustomerTokens,
  SecurityEvents,
  SessionService,
  SessionsRepository,
  TwoFactorService,
} from './modules/auth/index.js';
import {
  CustomersRepository,
  CustomersService,
  type BalanceReader,
  type ResourceUsageReader,
} from './modules/customers/index.js';
import { housekeepingJob } from './platform/housekeeping.js';
import { NotificationsRepository, NotificationsService, LOW_BALANCE_THRESHOLD } from './modules/notifications/index.js';
import { TicketsRepository, TicketsService, TicketStream } from './modules/tickets/index.js';
import { AnnouncementsRepository, AnnouncementsService } from './modules/announcements/index.js';
import { RetentionRepository, RetentionService } from './modules/retention/index.js';
import { IdempotencyStore } from './platform/idempotency/idempotency.js';
import { createPaymentGateways, type PaymentGateways } from './integrations/payment-gateways/index.js';
import { WalletAdjustmentsService, WalletReconciliationService, WalletRepository, WalletService } from './modules/wallet/index.js';
import { createDatacenter, type Datacenter } from './integrations/datacenter/index.js';
import { TiersRepository, TiersService } from './modules/tiers/index.js';
import { BlockStorageRepository, BlockStorageService } from './modules/block-storage/index.js';
import { PricingRepository, PricingService } from './modules/pricing/index.js';
import { ComputeRepository, ComputeService, VmTasksService } from './modules/compute/index.js';
import { NetworksRepository, NetworksService, NetworkTasksService } from './modules/networks/index.js';
import {
  BillingRepository,
  callbackRetentionJob,
  CouponsRepository,
  CouponsService,
  DepositsService,
  SandboxPaymentsService,
  TopupCallbacksService,
  TopupCreditFailuresService,
  TopupCreditingService,
  TopupExpiryService,
  seedPaymentMethods,
} from './modules/billing/index.js';
import { DashboardRepository, DashboardService } from './modules/dashboard/index.js';
import { RewardsRepository, RewardsService } from './modules/rewards/index.js';
import { SecurityGroupsRepository, SecurityGroupsService } from './modules/security-groups/index.js';
import { LoadBalancersRepository, LoadBalancersService } from './modules/load-balancers/index.js';
import {
  BillableStartService,
  BillingUsageService,
  ChargingRepository,
  ChargingService,
  MeteringService,
  PostpaidPaymentsService,
  PostpaidRepository,
  PostpaidService,
  SuspensionRepository,
  SuspensionService,
  UsageViewRepository,
} from './modules/charging/index.js';
import { createObjectStorage, type ObjectStorageProvider } from './integrations/object-storage/index.js';
import { ObjectStorageRepository, ObjectStorageService } from './modules/object-storage/index.js';
import { Lifecycle } from './platform/lifecycle/index.js';
import { SshKeysRepository, SshKeysService } from './modules/ssh-keys/index.js';
import { ApiTokensRepository, ApiTokensService, BearerOrCookieAuthenticator } from './modules/api-tokens/index.js';
import { DeliveriesRepository, exactNumber, WebhookDeliveriesService, WebhookOutbox, WebhookSender, WebhooksRepository, WebhooksService, type WebhookEmitter } from './modules/webhooks/index.js';

export interface ContainerOptions {
  clock?: Clock;
  log: Logger;
  /** Faster job polling for tests. */
  jobPollingIntervalSeconds?: number;
  /** How often due schedules are looked for (tests: 1 s; default about 30 s). */
  cronIntervalSeconds?: number;
  /** Whether the worker writes the job schedules (default true; test apps turn them on when they test them). */
  schedules?: boolean;
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
  staffTwoFactor: StaffTwoFactorService;
  adminAuthenticator: AdminAuthenticator;
  jobsAdmin: JobsAdminService;
  customerAdmin: CustomerAdminService;
  // identity (customer side)
  auth: AuthService;
  sessions: SessionService;
  twoFactor: TwoFactorService;
  changeEmail: ChangeEmailService;
  /** the customer surface's authenticator: an API token (Authorization: Bearer) or the session cookie */
  customerAuthenticator: CustomerAuthenticator;
  securityEvents: SecurityEvents;
  customers: CustomersService;
  // money (wallet, top-ups)
  wallet: WalletService;
  coupons: CouponsService;
  deposits: DepositsService;
  topupCrediting: TopupCreditingService;
  topupCallbacks: TopupCallbacksService;
  topupCreditFailures: TopupCreditFailuresService;
  topupExpiry: TopupExpiryService;
  sandboxPayments: SandboxPaymentsService;
  walletAdjustments: WalletAdjustmentsService;
  // catalog and compute
  tiers: TiersService;
  blockStorage: BlockStorageService;
  pricing: PricingService;
  compute: ComputeService;
  vmTasks: VmTasksService;
  // operations
  notifications: NotificationsService;
  tickets: TicketsService;
  ticketStream: TicketStream;
  announcements: AnnouncementsService;
  retention: RetentionService;
  // private networks
  networks: NetworksService;
  networkTasks: NetworkTasksService;
  walletReconciliation: WalletReconciliationService;
  dashboard: DashboardService;
  // rewards, redeem codes
  rewards: RewardsService;
  securityGroups: SecurityGroupsService;
  loadBalancers: LoadBalancersService;
  // charging
  metering: MeteringService;
  charging: ChargingService;
  suspension: SuspensionService;
  billingUsage: BillingUsageService;
  postpaid: PostpaidService;
  postpaidPayments: PostpaidPaymentsService;
  objectStorage: ObjectStorageService;
  sshKeys: SshKeysService;
  // automation: personal access tokens, outbound webhooks
  apiTokens: ApiTokensService;
  webhooks: WebhooksService;
  webhookDeliveries: WebhookDeliveriesService;
  /** the port modules report webhook events through, in the transaction of the change */
  webhookEvents: WebhookEmitter;
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
  /** where VMs run: the simulated datacenter unless configured otherwise */
  datacenter: Datacenter;
  /** the object storage backend (radosgw, or the local control plane) */
  objectStorage: ObjectStorageProvider;
  /** the resource lifecycle: desired against applied state of everything at the datacenter and object storage */
  lifecycle: Lifecycle;
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
    const metrics = createMetricsRegistry();
    const queue = new JobQueue(database, log, { pollingIntervalSeconds: opts.jobPollingIntervalSeconds ?? 2, ...(opts.cronIntervalSeconds ? { cronIntervalSeconds: opts.cronIntervalSeconds } : {}), ...(opts.schedules === false ? { schedules: false } : {}) });
    const events = new EventBus(database, log);
    const mailer = new Mailer(db, queue, clock, log, { smtpUrl: config.smtpUrl, from: config.mailFrom, logBodies: config.nodeEnv === 'development' });

    const audit = new AuditService(db, new AuditRepository(), clock);
    // One account-lock rule for customers and staff (src/platform/account-lock).
    const accountLock = new AccountLock(db, clock);
    queue.register(accountLock.pruneJob);
    // One refresh-token mechanism for customers and staff (src/platform/refresh-tokens).
    const refreshTokens = new RefreshTokens(db, clock);
    queue.register(refreshTokens.pruneJob);
    const settings = new SettingsService(db, new SettingsRepository(), audit, clock, events, log);
    const lookups = new LookupsService(db, new LookupsRepository(), settings);

    const adminsRepo = new AdminsRepository();
    const rolesRepo = new RolesRepository();
    const adminSessions = new AdminSessionsRepository();
    const roles = new RolesService(db, rolesRepo, adminsRepo, audit);
    const admins = new AdminsService(db, adminsRepo, rolesRepo, adminSessions, audit, mailer, clock, accountLock);
    const staffTwoFactor = new StaffTwoFactorService(db, adminsRepo, adminSessions, audit, accountLock, clock, { encryptionKey: config.encryptionKey, issuer: 'Cloud Platform Backoffice' });
    const adminAuth = new AdminAuthService(db, adminsRepo, adminSessions, roles, audit, new AdminTokens(config.jwtSecret), clock, {
      lock: accountLock,
      refreshTokens,
      twoFactor: staffTwoFactor,
      staffTwoFactorRequired: () => settings.staffTwoFactorRequired(),
    });
    const jobsAdmin = new JobsAdminService(db, queue, admins, audit, clock);
    queue.register(adminAuth.pruneJob);

    // Money: wallet ledger, top-ups, gateways
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
    if (config.objectStorage.provider === 'local') {
      log[config.nodeEnv === 'production' ? 'warn' : 'info']('OBJECT_STORAGE_PROVIDER=local: buckets and access keys have no S3 data plane (no endpoint, no object data); OBJECT_STORAGE_PROVIDER=ceph gives one');
    }
    if (!config.metricsToken && config.nodeEnv === 'production') {
      log.warn('METRICS_TOKEN is not set: GET /metrics is not served; set it to scrape with Authorization: Bearer <token>');
    }
    // Webhook events: modules report them through the outbox in the transaction of the change; the
    // fan-out job it queues belongs to the delivery service built further down.
    const deliveriesRepo = new DeliveriesRepository();
    const webhookEvents: WebhookOutbox = new WebhookOutbox(deliveriesRepo, (payloads: SQL): SQL => webhookDeliveries.fanOutJobs(payloads), clock);
    const notifications = new NotificationsService(db, new NotificationsRepository(), queue, clock, { lowBalanceThreshold: LOW_BALANCE_THRESHOLD, currency: config.currency }, webhookEvents);
    queue.register(notifications.announceJob);
    const wallet = new WalletService(db, new WalletRepository(), notifications);
    const billingRepo = new BillingRepository();
    const coupons = new CouponsService(db, new CouponsRepository(), clock);
    const deposits = new DepositsService(db, billingRepo, coupons, gateways, idempotency, clock, {
      currency: config.currency,
      expiryHours: config.topupExpiryHours,
    }, wallet, notifications);
    const topupCrediting = new TopupCreditingService(db, billingRepo, wallet, coupons, queue, mailer, clock, log, notifications);
    const topupCallbacks = new TopupCallbacksService(db, billingRepo, coupons, gateways, queue, topupCrediting.creditJob, clock, log);
    const topupCreditFailures = new TopupCreditFailuresService(db, billingRepo, queue, topupCrediting.creditJob);
    const topupExpiry = new TopupExpiryService(db, billingRepo, coupons, clock);
    const sandboxPayments = new SandboxPaymentsService(db, billingRepo, gateways, clock, log, config.publicUrl);
    const walletAdjustments = new WalletAdjustmentsService(db, wallet, idempotency, audit);
    const walletReconciliation = new WalletReconciliationService(db, new WalletRepository(), clock, log);
    queue.register(walletReconciliation.reconcileJob);
    registerReadGauge(metrics, {
      name: 'job_schedules_not_registered',
      help: 'Declared job schedules the job queue does not hold as declared: those jobs do not run by themselves (GET /api/backoffice/jobs)',
      read: async () => (await queue.schedules()).filter((s) => !s.ok).length,
    });
    registerReadGauge(metrics, {
      name: 'wallet_ledger_drift_wallets',
      help: 'Wallets whose balances differed from the sums of their ledger at the last reconciliation (wallet.reconcile)',
      read: () => walletReconciliation.driftCount(),
    });
    registerReadGauge(metrics, {
      name: 'topup_credit_failures_open',
      help: 'Paid top-ups whose wallet credit failed and is not resolved (GET /api/backoffice/billing/credit-failures)',
      read: () => topupCreditFailures.openCreditFailures(),
    });
    queue.register(topupCrediting.creditJob, topupCrediting.recreditInvoiceJob, topupExpiry.expireJob, topupCrediting.recreditJob);
    queue.register(callbackRetentionJob({ db, repo: billingRepo, clock }));

    // Charging: meters, the hourly charge, suspension. Resource modules meter themselves through `metering`.
    const chargingRepo = new ChargingRepository();
    const metering = new MeteringService(db, chargingRepo);
    const charging = new ChargingService(db, chargingRepo, clock, log);
    const suspensionRepo = new SuspensionRepository();
    // "may this customer start something billable": every create of a metered resource asks it
    const billableStart = new BillableStartService(suspensionRepo);
    const suspension = new SuspensionService(db, suspensionRepo, queue, mailer, clock, log, config.currency, webhookEvents);
    suspension.useNotifier(notifications);
    const billingUsage = new BillingUsageService(db, new UsageViewRepository(), suspensionRepo, clock);
    charging.setAfterCharging(suspension);
    registerReadGauge(metrics, {
      name: 'charge_failures_open',
      help: 'Customers the hourly charge set aside because charging them failed (GET /api/backoffice/billing/charge-failures)',
      read: () => charging.openFailures(),
    });
    const postpaidRepo = new PostpaidRepository();
    const postpaid = new PostpaidService(db, postpaidRepo, queue, mailer, charging, suspension, clock, log, config.currency, webhookEvents);
    postpaid.useTopupInvoices(deposits);
    // a customer set aside and charged again gets the postpaid invoices they waited for
    charging.onResolved(postpaid);
    const postpaidPayments = new PostpaidPaymentsService(db, postpaidRepo, wallet, deposits, idempotency, queue, mailer, suspension, clock, config.currency, webhookEvents);
    // a paid top-up is reported to the customer's webhooks (one statement for a batch), may settle a postpaid payment and lift a suspension
    topupCrediting.onCredited({
      topupsCredited: async (tx, topups) => {
        await webhookEvents.emitMany(tx, topups.map((t) => ({ customerId: t.customerId, type: 'topup.credited', data: { invoice_id: t.invoiceId, amount: exactNumber(t.amount), currency: config.currency } })));
        await postpaidPayments.onTopupsCredited(tx, topups);
        await suspension.maybeResumeMany(tx, topups.map((t) => t.customerId));
      },
    });
    queue.register(charging.hourlyJob, suspension.applyJob, suspension.sweepJob, postpaid.issueJob, postpaid.overdueJob);

    // Resources at the datacenter and object storage: one lifecycle (apply job, sweep) with an adapter per kind.
    const lifecycle = new Lifecycle(db, queue, clock, log);
    queue.register(lifecycle.applyJob, lifecycle.sweepJob);

    // Catalog and compute: tiers, block storage, prices, VMs on the datacenter
    const datacenter = createDatacenter({ kind: config.datacenter, delayMs: config.datacenterDelayMs, libvirt: config.libvirt });
    const tiers = new TiersService(db, new TiersRepository(), audit, clock);
    const blockStorage = new BlockStorageService(db, new BlockStorageRepository(), audit, clock);
    const pricing = new PricingService(db, new PricingRepository(), tiers, blockStorage, audit, clock);
    const computeRepo = new ComputeRepository();
    const sshKeys = new SshKeysService(db, new SshKeysRepository(), clock);
    const compute = new ComputeService(db, computeRepo, tiers, blockStorage, pricing, billableStart, datacenter, lifecycle, clock, webhookEvents, sshKeys);
    const vmTasks = new VmTasksService(db, computeRepo, tiers, blockStorage, pricing, datacenter, metering, clock, webhookEvents);
    lifecycle.register(vmTasks);
    pricing.useResources(compute);
    queue.register(pricing.applyJob);

    // Private networks: on the datacenter; a VM's addresses are freed when it is Deleted
    const networksRepo = new NetworksRepository();
    const networks = new NetworksService(db, networksRepo, compute, billableStart, pricing, metering, lifecycle, clock, webhookEvents);
    const networkTasks = new NetworkTasksService(db, networksRepo, compute, pricing, datacenter, metering, clock, webhookEvents);
    lifecycle.register(networkTasks.networks);
    lifecycle.register(networkTasks.ips);
    vmTasks.onDeleted({ vmDeleted: (tx, vmId) => networks.releaseVm(tx, vmId) });
    pricing.useResources({ runningIn: async (loc) => [...(await compute.runningIn(loc)), ...(await networks.runningIn(loc))] });
    // identity (customer side)
    const linkBase = config.frontendUrl ?? config.publicUrl;
    const authRepo = new AuthRepository();
    const customerTokens = new CustomerTokens(config.jwtSecret, clock);
    const securityEvents = new SecurityEvents(db, audit);
    const sessions = new SessionService(db, new SessionsRepository(), authRepo, customerTokens, clock, securityEvents, refreshTokens, adminsRepo);
    queue.register(sessions.pruneJob);
    const auth = new AuthService(db, authRepo, sessions, customerTokens, mailer, clock, { base: linkBase, encryptionKey: config.encryptionKey }, { lock: accountLock, events: securityEvents, queue });
    const twoFactor = new TwoFactorService(db, authRepo, customerTokens, mailer, clock, { encryptionKey: config.encryptionKey, issuer: 'Cloud Platform' }, accountLock, securityEvents);
    const changeEmail = new ChangeEmailService(db, authRepo, sessions, mailer, clock, { linkBase, otpKey: config.jwtSecret }, securityEvents);
    const customerAuthenticator = new CookieCustomerAuthenticator(sessions);
    // Ports the money and compute branches replace with their own readers.
    const balances: BalanceReader = wallet;
    const resourceUsage: ResourceUsageReader = compute;
    const customers = new CustomersService(
      db,
      new CustomersRepository(),
      lookups,
      { balances, usage: resourceUsage, notifications, sessionLimits: sessions },
      clock,
    );

    const customerAdmin = new CustomerAdminService(db, customers, sessions, twoFactor, audit, mailer);

    // Operations: tickets and their live stream, announcements
    const ticketsRepo = new TicketsRepository();
    const tickets = new TicketsService(db, ticketsRepo, events, notifications, audit, clock, webhookEvents);
    const ticketStream = new TicketStream(db, ticketsRepo, events, clock, log);
    queue.register(ticketStream.pruneJob);
    const announcements = new AnnouncementsService(db, new AnnouncementsRepository(), notifications, audit, clock);
    queue.register(announcements.publishDueJob);
    // History: monthly partitions made ahead, usage roll-up and retention, monthly exports
    const retention = new RetentionService(db, new RetentionRepository(), clock, log);
    queue.register(retention.ensurePartitionsJob, retention.retentionJob);
    // Operations: the backoffice dashboard
    const dashboard = new DashboardService(db, new DashboardRepository(), (loc) => datacenter.publicIpPool(loc).addresses.length, clock, {
      timeZone: config.platformTimeZone,
      currency: config.currency,
    });
    queue.register(dashboard.compactJob);

    // Rewards and redeem codes: told about every credited top-up
    const rewards = new RewardsService(db, new RewardsRepository(), wallet, clock);
    auth.useReferrals(rewards);
    topupCrediting.onCredited(rewards, { bestEffort: true });
    const securityGroups = new SecurityGroupsService(db, new SecurityGroupsRepository(), datacenter, lifecycle, clock);
    lifecycle.register(securityGroups);
    const loadBalancers = new LoadBalancersService(db, new LoadBalancersRepository(), pricing, datacenter, metering, lifecycle, clock, billableStart);
    lifecycle.register(loadBalancers);
    vmTasks.onDeleted(securityGroups);
    vmTasks.onDeleted(loadBalancers);
    // Object storage: buckets and access keys; backend calls run in jobs.
    const objectStorageBackend = createObjectStorage({
      ...config.objectStorage,
      // the embedded database on disk: the local storage keeps its state beside it
      ...(config.databaseUrl === undefined ? { localStateFile: path.join(config.dataDir, 'object-storage.json') } : {}),
    });
    const objectStorage = new ObjectStorageService(db, new ObjectStorageRepository(), objectStorageBackend, lifecycle, metering, pricing, billableStart, clock, log, {
      encryptionKey: config.encryptionKey,
      quotaUnitBytes: config.objectStorage.quotaUnitBytes,
      gbMonthPrice: config.objectStorage.gbMonthPrice,
      currency: config.currency,
      publicEndpoint: config.objectStorage.publicEndpoint,
    }, webhookEvents);
    lifecycle.register(objectStorage.buckets);
    lifecycle.register(objectStorage.keys);
    // Automation: personal access tokens and outbound webhooks (an outbox fanned out by jobs)
    const apiTokens = new ApiTokensService(db, new ApiTokensRepository(), audit, clock);
    queue.register(apiTokens.pruneJob);
    const bearerOrCookie = new BearerOrCookieAuthenticator(apiTokens, customerAuthenticator, {
      counters: rateLimits,
      perTokenPerMin: config.apiTokenRateLimitPerMin,
      perIpPerMin: config.apiTokenIpRateLimitPerMin,
    });
    const webhookSender = new WebhookSender({ allowPrivateTargets: config.webhookAllowPrivateTargets });
    const webhookDeliveries = new WebhookDeliveriesService(db, deliveriesRepo, queue, webhookSender, notifications, mailer, clock, systemClock, log, config.encryptionKey);
    queue.register(webhookDeliveries.fanOutJob, webhookDeliveries.deliverJob, webhookDeliveries.sweepJob, webhookDeliveries.pruneJob);
    const webhooks = new WebhooksService(db, new WebhooksRepository(), deliveriesRepo, webhookDeliveries, webhookEvents, clock, {
      encryptionKey: config.encryptionKey,
      production: config.nodeEnv === 'production',
      allowPrivateTargets: config.webhookAllowPrivateTargets,
    });

    // a staff ADD that brings a suspended customer back to zero or more lifts the suspension at once
    walletAdjustments.onAdded(async (tx, customerId) => void (await suspension.maybeResume(tx, customerId)));
    // Suspension stops the VMs and refuses the object storage keys (networks and balancers keep running).
    suspension.setSuspender({
      suspendCustomer: async (customerId, reason) => {
        await compute.suspendCustomerVms(customerId, reason);
        await objectStorage.suspendCustomer(customerId, reason);
      },
      resumeCustomer: async (customerId) => {
        await compute.resumeCustomerVms(customerId);
        await objectStorage.resumeCustomer(customerId);
      },
    });

    if (opts.migrate !== false) {
      // Seeded once per build of the code (half a second of a start on the embedded database).
      await database.seedOnce(seedFingerprint(fileURLToPath(import.meta.url)), async () => {
        await settings.seed();
        await lookups.seed();
        await roles.seed();
        await seedPaymentMethods(db, billingRepo);
        const seededTiers = await tiers.seed();
        const seededStorageTiers = await blockStorage.seed();
        await pricing.seed(seededTiers, seededStorageTiers.map((t) => t.id));
      });
      if (!opts.skipBootstrapAdmin) await bootstrapFirstAdmin(admins, {
        email: config.bootstrapAdminEmail,
        password: config.bootstrapAdminPassword,
        embeddedDefault: config.databaseUrl === undefined,
        log,
      });
    }
    // the settings cache of this process is dropped by a change in any process (LISTEN/NOTIFY)
    await settings.start();
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
      metrics,
      gateways,
      datacenter,
      objectStorage: objectStorageBackend,
      lifecycle,
      idempotency,
      rateLimits,
      services: {
        settings,
        lookups,
        audit,
        roles,
        admins,
        adminAuth,
        staffTwoFactor,
        adminAuthenticator: new CookieAdminAuthenticator(adminAuth),
        jobsAdmin,
        customerAdmin,
        auth,
        sessions,
        twoFactor,
        changeEmail,
        customerAuthenticator: bearerOrCookie,
        securityEvents,
        customers,
        wallet,
        coupons,
        deposits,
        topupCrediting,
        topupCallbacks,
        topupCreditFailures,
        topupExpiry,
        sandboxPayments,
        walletAdjustments,
        tiers,
        blockStorage,
        pricing,
        compute,
        vmTasks,
        notifications,
        tickets,
        ticketStream,
        announcements,
        retention,
        networks,
        networkTasks,
        walletReconciliation,
        dashboard,
        rewards,
        securityGroups,
        loadBalancers,
        metering,
        charging,
        suspension,
        billingUsage,
        postpaid,
        postpaidPayments,
        objectStorage,
        sshKeys,
        apiTokens,
        webhooks,
        webhookDeliveries,
        webhookEvents,
      },
      startWorker: () => queue.work(),
      async close() {
        await ticketStream.close();
        await settings.close();
        await queue.stop();
        await webhookSender.close();
        mailer.close();
        objectStorageBackend.close?.();
        await database.close();
      },
    };
  } catch (err) {
    await database.close().catch(() => undefined);
    throw err;
  }
}
