/**
 * Every query key of the console, written once. A resource's keys start with its root (`all`), so
 * invalidating the root refreshes its pages and its details; screens name keys through these
 * factories and never as literals. The staff console's keys sit under `staff`, apart from the
 * customer's (the same word may name another endpoint there).
 */
type Id = number | string;

export const keys = {
  /** GET /api/lookup/locations, read by both consoles. */
  locations: ['locations'] as const,

  me: ['me'] as const,
  /** whether the browser holds a session at all (asked before any signed-in call) */
  sessionHint: ['session-hint'] as const,
  sessions: ['sessions'] as const,
  profile: ['profile'] as const,
  countries: ['countries'] as const,
  referral: ['referral'] as const,
  passwordRules: ['password-rules'] as const,
  terms: ['tnc'] as const,
  recoveryCodes: (token: string | undefined) => ['recovery', token] as const,

  usage: ['usage'] as const,
  usageHours: (page: number) => ['usage', 'hours', page] as const,
  highlight: ['highlight'] as const,
  paymentMethods: ['payment-methods'] as const,
  topUpMinimum: ['topup-minimum'] as const,
  deposits: (page: number) => ['deposits', page] as const,
  budget: ['budget'] as const,
  alerts: {
    all: ['alerts'] as const,
    policies: ['alerts', 'policies'] as const,
    incidents: (page: number) => ['alerts', 'incidents', page] as const,
    openOfVm: (vmId: Id) => ['alerts', 'vm', vmId] as const,
  },
  postpaid: {
    all: ['postpaid'] as const,
    unpaid: ['postpaid', 'unpaid'] as const,
    summary: ['postpaid', 'summary'] as const,
    invoices: (page: number) => ['postpaid', 'invoices', page] as const,
  },

  vms: {
    all: ['vms'] as const,
    page: (page: number) => ['vms', page] as const,
    choices: ['vms', 'choices'] as const,
    one: (id: Id) => ['vms', 'one', id] as const,
    resizePreview: (id: Id, tierId: number | undefined) => ['vms', 'one', id, 'resize', tierId] as const,
    backups: (id: Id) => ['vms', 'one', id, 'backups'] as const,
    metrics: (id: Id, range: string) => ['vms', 'one', id, 'metrics', range] as const,
    traffic: (id: Id) => ['vms', 'one', id, 'traffic'] as const,
  },
  snapshots: {
    all: ['snapshots'] as const,
    ofVm: (vmId: Id) => ['snapshots', 'vm', vmId] as const,
  },
  sshKeys: ['ssh-keys'] as const,
  operatingSystems: ['operating-systems'] as const,
  catalog: (location: Id | undefined) => ['catalog', String(location ?? '')] as const,
  storageTiers: (location: Id) => ['storage-tiers', location] as const,
  networks: {
    all: ['networks'] as const,
    one: (uuid: string) => ['networks', uuid] as const,
    ips: (uuid: string) => ['networks', uuid, 'ips'] as const,
    graph: (uuid: string) => ['networks', uuid, 'graph'] as const,
  },
  securityGroups: {
    all: ['security-groups'] as const,
    one: (uuid: string) => ['security-groups', uuid] as const,
  },
  ruleTypes: ['rule-types'] as const,
  balancers: {
    all: ['balancers'] as const,
    one: (uuid: string) => ['balancers', uuid] as const,
  },
  buckets: ['buckets'] as const,
  bucketPrice: ['bucket-price'] as const,
  storageKeys: ['keys'] as const,
  apiTokens: {
    all: ['api-tokens'] as const,
    page: (page: number) => ['api-tokens', page] as const,
  },
  tickets: {
    all: ['tickets'] as const,
    page: (page: number) => ['tickets', page] as const,
    one: (id: Id) => ['tickets', 'one', id] as const,
  },
  feed: (kind: string, page: number) => ['feed', kind, page] as const,
  accounts: ['accounts'] as const,
  members: ['members'] as const,
  accountClosure: ['account-closure'] as const,
  activity: (page: number) => ['activity', page] as const,
  invitation: (token: string) => ['invitation', token] as const,
  notifications: {
    all: ['notifications'] as const,
    page: (page: number) => ['notifications', page] as const,
  },

  staff: {
    me: ['staff', 'me'] as const,
    vmBackups: (id: Id) => ['staff', 'vm-backups', id] as const,
    backupPolicy: ['staff', 'backup-policy'] as const,
    backupUsage: ['staff', 'backup-usage'] as const,
    /** whether the browser holds a staff session at all (asked before any signed-in call) */
    sessionHint: ['staff', 'session-hint'] as const,
    dashboard: {
      insight: ['staff', 'dash', 'insight'] as const,
      revenue: ['staff', 'dash', 'revenue'] as const,
      deposit: ['staff', 'dash', 'deposit'] as const,
      vms: (groupBy: string) => ['staff', 'dash', 'vms', groupBy] as const,
      ips: ['staff', 'dash', 'ips'] as const,
    },
    customers: (page: number, search: string) => ['staff', 'customers', page, search] as const,
    customer: (id: number) => ['staff', 'customer', id] as const,
    customerSessions: (id: number) => ['staff', 'customer-sessions', id] as const,
    customerMembers: (id: number) => ['staff', 'customer-members', id] as const,
    creditHistory: {
      all: (id: number) => ['staff', 'credit-history', id] as const,
      page: (id: number, page: number) => ['staff', 'credit-history', id, page] as const,
    },
    customerResources: (id: number, page: number, kind: string) => ['staff', 'customer-resources', id, page, kind] as const,
    vms: (filters: unknown) => ['staff', 'vms', filters] as const,
    vm: (id: Id) => ['staff', 'vm', id] as const,
    vmSnapshots: (id: Id) => ['staff', 'vm', id, 'snapshots'] as const,
    vmMetrics: (id: Id, range: string) => ['staff', 'vm', id, 'metrics', range] as const,
    vmTraffic: (id: Id) => ['staff', 'vm', id, 'traffic'] as const,
    tiers: ['staff', 'tiers'] as const,
    tierTypes: ['staff', 'tier-types'] as const,
    storageTiers: ['staff', 'storage-tiers'] as const,
    blockMachines: ['staff', 'block-machines'] as const,
    components: ['staff', 'components'] as const,
    schedules: {
      all: ['staff', 'schedules'] as const,
      byStatus: (status: string) => ['staff', 'schedules', status] as const,
    },
    prices: (location: Id) => ['staff', 'prices', location] as const,
    prepaidInvoices: (page: number, status: string) => ['staff', 'prepaid-invoices', page, status] as const,
    postpaidInvoices: {
      all: ['staff', 'postpaid-invoices'] as const,
      page: (page: number, status: string) => ['staff', 'postpaid-invoices', page, status] as const,
    },
    coupons: {
      all: ['staff', 'coupons'] as const,
      page: (page: number) => ['staff', 'coupons', page] as const,
    },
    redeemCodes: {
      all: ['staff', 'redeem-codes'] as const,
      page: (page: number) => ['staff', 'redeem-codes', page] as const,
    },
    rewards: ['staff', 'rewards'] as const,
    content: {
      all: (kind: string) => ['staff', 'content', kind] as const,
      page: (kind: string, page: number) => ['staff', 'content', kind, page] as const,
    },
    settings: ['staff', 'settings'] as const,
    company: ['staff', 'company'] as const,
    colors: ['staff', 'colors'] as const,
    twoFactorPolicy: ['staff', '2fa-policy'] as const,
    charging: ['staff', 'charging-settings'] as const,
    ruleTypes: ['staff', 'rule-types'] as const,
    admins: {
      all: ['staff', 'admins'] as const,
      page: (page: number) => ['staff', 'admins', page] as const,
      every: ['staff', 'admins', 'all'] as const,
    },
    roles: ['staff', 'roles'] as const,
    rolePermissions: {
      all: ['staff', 'role-permissions'] as const,
      of: (role: string) => ['staff', 'role-permissions', role] as const,
    },
    tickets: {
      all: ['staff', 'tickets'] as const,
      insight: ['staff', 'tickets', 'insight'] as const,
      page: (page: number, status: string) => ['staff', 'tickets', 'list', page, status] as const,
      one: (id: Id) => ['staff', 'tickets', 'one', id] as const,
      ofCustomer: (id: number, page: number) => ['staff', 'tickets', 'customer', id, page] as const,
    },
    audit: (page: number, action: string) => ['staff', 'audit', page, action] as const,
  },
};
