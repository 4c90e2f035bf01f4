import { fileURLToPath } from 'node:url';
import type { Registry } from 'prom-client';
import { warnAboutConfig, type Config } from './config/index.js';
import { consoleAccessFlow } from './flows/console-access.js';
import { customerSuspensionFlow } from './flows/customer-suspension.js';
import { endpointDisabledFlow } from './flows/endpoint-disabled.js';
import { hourlyChargedFlow } from './flows/hourly-charged.js';
import { runningResources } from './flows/running-resources.js';
import { accountHoldings } from './flows/account-holdings.js';
import { staffCreditFlow } from './flows/staff-credit.js';
import { topupCreditedFlow } from './flows/topup-credited.js';
import { vmDeletedFlow } from './flows/vm-deleted.js';
import { createOutsideSystems, type OutsideSystems } from './integrations/from-config.js';
import { buildPlatform, type PlatformOptions } from './platform/build-platform.js';
import { seedFingerprint } from './platform/db/database.js';
import { registerReadGauge } from './platform/http/metrics.js';
import type { RoutePermission } from './platform/http/surfaces.js';
import { builtLater, type BuiltModule, type Platform } from './platform/module.js';
import type { DocumentParties } from './platform/pdf/pdf.js';
import { createAdminsModule } from './modules/admins/index.js';
import { createAlertsModule } from './modules/alerts/index.js';
import { createAnnouncementsModule } from './modules/announcements/index.js';
import { createApiTokensModule } from './modules/api-tokens/index.js';
import { createAuditModule } from './modules/audit/index.js';
import { createAuthModule } from './modules/auth/index.js';
import { createBackupsModule } from './modules/backups/index.js';
import { createBillingModule } from './modules/billing/index.js';
import { createBudgetsModule } from './modules/budgets/index.js';
import { createBlockStorageModule } from './modules/block-storage/index.js';
import { createChargingModule } from './modules/charging/index.js';
import { createComputeModule } from './modules/compute/index.js';
import { createCustomerAdminModule } from './modules/customer-admin/index.js';
import { createCustomersModule } from './modules/customers/index.js';
import { createDashboardModule } from './modules/dashboard/index.js';
import { createJobsModule } from './modules/jobs/index.js';
import { createLoadBalancersModule } from './modules/load-balancers/index.js';
import { createLookupsModule } from './modules/lookups/index.js';
import { createMembersModule } from './modules/members/index.js';
import { createMetricsModule } from './modules/metrics/index.js';
import { createNetworksModule } from './modules/networks/index.js';
import { createNotificationsModule } from './modules/notifications/index.js';
import { createObjectStorageModule } from './modules/object-storage/index.js';
import { createPricingModule } from './modules/pricing/index.js';
import { createRetentionModule } from './modules/retention/index.js';
import { createRewardsModule } from './modules/rewards/index.js';
import { createSecurityGroupsModule } from './modules/security-groups/index.js';
import { createSnapshotsModule } from './modules/snapshots/index.js';
import { createSettingsModule } from './modules/settings/index.js';
import { createSshKeysModule } from './modules/ssh-keys/index.js';
import { createTicketsModule } from './modules/tickets/index.js';
import { createTiersModule } from './modules/tiers/index.js';
import { createWalletModule } from './modules/wallet/index.js';
import { createWebhooksModule } from './modules/webhooks/index.js';

export interface ContainerOptions extends PlatformOptions {
  /** Do not create the first Super Admin on an empty database (CLI tools). */
  skipBootstrapAdmin?: boolean;
}

/**
 * The feature modules, each after what it needs, in the order they are built, seeded and mounted.
 * A reaction that crosses modules is a flow (src/flows): its listeners are named in one place and
 * read when it first runs, after every module exists.
 */
function buildModules(p: Platform, { gateways, datacenter, objectStorage: backend, backupStore }: OutsideSystems) {
  const flows = {
    topupCredited: topupCreditedFlow(() => ({ webhooks: webhookEvents, currency: p.config.currency, ...charging.services, rewards: rewards.services.rewards })),
    customerSuspension: customerSuspensionFlow(() => ({ compute: compute.services.compute, objectStorage: objectStorage.services.objectStorage })),
    vmDeleted: vmDeletedFlow(() => ({ ...networks.services, ...securityGroups.services, ...loadBalancers.services, backups: backups.services.backups })),
    staffCredit: staffCreditFlow(() => charging.services),
    hourlyCharged: hourlyChargedFlow(() => ({ budgets: budgets.services.budgets })),
    endpointDisabled: endpointDisabledFlow(() => notifications.services),
    runningResources: runningResources(() => ({ compute: compute.services.compute, networks: networks.services.networks })),
    accountHoldings: accountHoldings(() => ({
      compute: compute.services.compute, networks: networks.services.networks, loadBalancers: loadBalancers.services.loadBalancers, objectStorage: objectStorage.services.objectStorage,
      snapshots: snapshots.services.snapshots, wallet: wallet.services.wallet, postpaid: charging.services.postpaid,
    })),
    consoleAccess: consoleAccessFlow(() => ({ staff: admins.services.adminAuth, sessions: auth.services.sessions, apiTokens: apiTokens.services.apiTokens })),
  };
  const audit = createAuditModule(p, { people: builtLater(() => customers.services.customers) });
  const settings = createSettingsModule(p, audit.services);
  const lookups = createLookupsModule(p, settings.services);
  const admins = createAdminsModule(p, { ...audit.services, settings: settings.services.settings });
  const jobs = createJobsModule(p, { admins: admins.services.admins, ...audit.services });
  const webhooks = createWebhooksModule(p, { endpointDisabled: flows.endpointDisabled });
  const { webhookEvents } = webhooks.services;
  const notifications = createNotificationsModule(p, { webhookEvents });
  const wallet = createWalletModule(p, { balances: notifications.services.notifications, ...audit.services, staffCredited: flows.staffCredit });
  // receipts and invoices name the issuer and the customer (read at print time)
  const parties: DocumentParties = { issuer: () => settings.services.company.issuerLines(), billTo: (id) => customers.services.customers.billToLines(id) };
  const billing = createBillingModule(p, { ...wallet.services, gateways, ...notifications.services, parties, credited: flows.topupCredited });
  const charging = createChargingModule(p, { ...wallet.services, ...notifications.services, topups: billing.services.topups, webhookEvents, parties, suspender: flows.customerSuspension, charged: flows.hourlyCharged });
  const budgets = createBudgetsModule(p, { spend: charging.services.billingUsage, notifications: notifications.services.notifications, webhookEvents });
  const { metering } = charging.services;
  const { billableStart } = charging;
  const tiers = createTiersModule(p, audit.services);
  const blockStorage = createBlockStorageModule(p, audit.services);
  const pricing = createPricingModule(p, { ...tiers.services, ...blockStorage.services, ...audit.services, resources: flows.runningResources });
  const sshKeys = createSshKeysModule(p);
  const compute = createComputeModule(p, {
    ...tiers.services, ...blockStorage.services, ...pricing.services, ...sshKeys.services, vmHosts: datacenter.vmHosts, metering, billableStart, webhookEvents,
    privateAddresses: builtLater(() => networks.services.networks),
    vmDeleted: flows.vmDeleted,
    consoles: datacenter.consoles,
    consoleAccess: flows.consoleAccess,
    audit: audit.services.audit,
    notifications: notifications.services.notifications,
    snapshotTasks: builtLater(() => snapshots.services.snapshotTasks),
    vmResized: builtLater(() => backups.services.backups),
  });
  const snapshots = createSnapshotsModule(p, {
    snapshots: datacenter.snapshots, vmActions: compute.services.vmActions, compute: compute.services.compute, ...pricing.services, metering, billableStart, webhookEvents,
    audit: audit.services.audit, notifications: notifications.services.notifications,
  });
  const networks = createNetworksModule(p, { networkFabric: datacenter.networkFabric, ...compute.services, ...pricing.services, metering, billableStart, webhookEvents });
  const rewards = createRewardsModule(p, wallet.services);
  const auth = createAuthModule(p, { ...audit.services, impersonators: admins.adminsRepo, apiTokens: builtLater(() => apiTokens.services.apiTokens), referrals: rewards.services.rewards });
  const apiTokens = createApiTokensModule(p, { ...audit.services, cookieAuthenticator: auth.cookieAuthenticator, sudo: auth.services.twoFactor });
  const members = createMembersModule(p, { ...audit.services, sudo: auth.services.twoFactor, holdings: flows.accountHoldings });
  const customers = createCustomersModule(p, {
    ...lookups.services,
    ports: { balances: wallet.services.wallet, usage: compute.services.compute, notifications: notifications.services.notifications, sessionLimits: auth.services.sessions },
  });
  const customerAdmin = createCustomerAdminModule(p, { ...customers.services, ...auth.services, access: auth.access, ...audit.services });
  const tickets = createTicketsModule(p, { ...notifications.services, ...audit.services, webhookEvents, staffSessions: admins.services.adminAuth });
  const announcements = createAnnouncementsModule(p, { ...notifications.services, ...audit.services });
  const retention = createRetentionModule(p);
  const dashboard = createDashboardModule(p, { vmHosts: datacenter.vmHosts });
  const securityGroups = createSecurityGroupsModule(p, { firewalls: datacenter.firewalls });
  const loadBalancers = createLoadBalancersModule(p, { balancers: datacenter.balancers, ...pricing.services, metering, billableStart });
  const objectStorage = createObjectStorageModule(p, { backend, ...pricing.services, metering, billableStart, webhookEvents });
  const backups = createBackupsModule(p, {
    backups: datacenter.backups, vmHosts: datacenter.vmHosts, backupStore, ...compute.services, ...tiers.services, ...pricing.services, metering, webhookEvents,
    audit: audit.services.audit, notifications: notifications.services.notifications,
  });
  const metrics = createMetricsModule(p, { metrics: datacenter.metrics, compute: compute.services.compute });
  // the metric alerts read the per-minute points the metrics collection stores
  const alerts = createAlertsModule(p, { metrics: metrics.services.metricsReader, notifications: notifications.services.notifications, webhookEvents });
  const modules = {
    audit, settings, lookups, admins, jobs, webhooks, notifications, wallet, billing, charging, budgets, tiers, blockStorage, pricing, sshKeys,
    compute, snapshots, networks, rewards, auth, apiTokens, customers, customerAdmin, tickets, announcements, retention, dashboard, securityGroups,
    loadBalancers, objectStorage, members, backups, metrics, alerts,
  } satisfies Record<string, BuiltModule>;
  return { modules, flows };
}

type Modules = ReturnType<typeof buildModules>['modules'];
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Every module's services, by name (each module's factory says what it gives). */
export type Services = Intersection<Modules[keyof Modules]['services']>;

/** The reactions that cross modules, each with its listeners named in src/flows. */
export type Flows = ReturnType<typeof buildModules>['flows'];

export interface Container extends Platform, OutsideSystems {
  metrics: Registry;
  services: Services;
  /** the feature modules, in the order they were built (src/app.ts mounts their routes) */
  modules: readonly BuiltModule[];
  /** every backoffice route and its permission, filled as the routes register */
  routeMap: RoutePermission[];
  /** the reactions that cross modules (src/flows), as the modules that start them hold them */
  flows: Flows;
  /** Starts the job workers and schedules in this process. */
  startWorker(): Promise<void>;
  close(): Promise<void>;
}

/** Builds everything once: the API, the worker and the tests share this. */
export async function buildContainer(config: Config, opts: ContainerOptions): Promise<Container> {
  const { platform: p, metrics } = await buildPlatform(config, opts);
  const { database, queue, lifecycle, mailer } = p;
  try {
    warnAboutConfig(config, p.log);
    const outside = createOutsideSystems(config, p.clock);
    const { modules: named, flows } = buildModules(p, outside);
    const modules: BuiltModule[] = Object.values(named);
    for (const m of modules) {
      queue.register(...(m.jobs ?? []));
      for (const adapter of m.resources ?? []) lifecycle.register(adapter);
      for (const gauge of m.gauges ?? []) registerReadGauge(metrics, gauge);
    }
    const services = Object.assign({}, ...modules.map((m) => m.services)) as Services;

    if (opts.migrate !== false) {
      // Seeded once per build of the code (half a second of a start on the embedded database).
      await database.seedOnce(seedFingerprint(fileURLToPath(import.meta.url)), async () => {
        for (const m of modules) await m.seed?.();
      });
      if (!opts.skipBootstrapAdmin) await named.admins.bootstrap();
    }
    // the settings cache of this process is dropped by a change in any process (LISTEN/NOTIFY)
    await services.settings.start();
    await queue.start();

    const { webhooks } = named;
    return {
      ...p,
      ...outside,
      metrics,
      services,
      modules,
      routeMap: named.admins.routeMap,
      flows,
      async startWorker() {
        await queue.work();
        await webhooks.dispatcher.start();
      },
      async close() {
        await services.ticketStream.close();
        await services.settings.close();
        await webhooks.dispatcher.stop();
        await queue.stop();
        await webhooks.sender.close();
        mailer.close();
        outside.objectStorage.close?.();
        outside.backupStore.close?.();
        await database.close();
      },
    };
  } catch (err) {
    await database.close().catch(() => undefined);
    throw err;
  }
}
