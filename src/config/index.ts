import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LibvirtConfigError, loadLibvirtConfig, type LibvirtConfig } from '../integrations/datacenter/index.js';
import { isMoneyInput, MONEY_INPUT_MAX } from '../platform/money.js';

export type Role = 'all' | 'api' | 'worker';
export type PaymentMode = 'sandbox' | 'live';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** undefined: embedded PGlite under dataDir; 'memory://': in-memory PGlite; else a postgres:// URL. */
  databaseUrl: string | undefined;
  publicUrl: string;
  frontendUrl: string | undefined;
  /** The web console (customer at /, staff at /backoffice): served from `dir` when on (CONSOLE, default on). */
  console: { enabled: boolean; dir: string };
  jwtSecret: string;
  encryptionKey: Buffer;
  smtpUrl: string | undefined;
  mailFrom: string;
  bootstrapAdminEmail: string | undefined;
  bootstrapAdminPassword: string | undefined;
  paymentMode: PaymentMode;
  pgoneMerchantCode: string;
  pgoneApiKey: string;
  pgtwoCallbackSecret: string;
  /** live mode only: the gateways' API base URLs and pgtwo's secret API key */
  pgoneBaseUrl: string;
  pgtwoBaseUrl: string;
  pgtwoApiKey: string;
  currency: string;
  topupExpiryHours: number;
  cookieSecure: boolean;
  logLevel: LogLevel;
  role: Role;
  authRateLimitPerMin: number;
  /** per-IP requests per minute on the payment callbacks and the payment return page */
  webhookRateLimitPerMin: number;
  /** Which proxies may set X-Forwarded-For (request.ip feeds the per-IP limits): false, true, a hop count or addresses/CIDRs. */
  trustProxy: boolean | number | string;
  /** How long a query may wait for a database connection before its request fails with 503. */
  databaseWaitMs: number;
  /** Bearer token for GET /metrics; unset: /metrics is public outside production and not served in production. */
  metricsToken: string | undefined;
  nodeEnv: string;
  /** The datacenter adapter and how long each simulated call takes. */
  datacenter: 'simulated' | 'libvirt';
  datacenterDelayMs: number;
  /** DATACENTER=libvirt: hypervisors, images and networks, read and validated from the JSON file LIBVIRT_CONFIG */
  libvirt: LibvirtConfig | undefined;
  /** SSE heartbeat of the ticket stream (a comment line; the staff session is re-checked at each). */
  sseHeartbeatMs: number;
  /** the VMs' serial console: sessions per VM and per customer, idle timeout, heartbeat (docs/api.md, "VM console") */
  serialConsole: { ticketSeconds: number; perVm: number; perCustomer: number; idleSeconds: number; heartbeatSeconds: number; maxMessageBytes: number };
  /** IANA zone whose calendar months the dashboard reports (PLATFORM_TIME_ZONE, default UTC); whole-hour offsets only. */
  platformTimeZone: string;
  objectStorage: ObjectStorageConfig;
  /** Webhook deliveries may go to loopback and private addresses (development only; refused in production). */
  webhookAllowPrivateTargets: boolean;
  /** Requests per minute per API token, and per client IP for requests made with a token. */
  apiTokenRateLimitPerMin: number;
  apiTokenIpRateLimitPerMin: number;
}

export interface ObjectStorageConfig {
  /** local: in-process control plane (embedded default); ceph: RADOS Gateway */
  provider: 'local' | 'ceph';
  /** ceph: radosgw URL the service calls (Admin Ops and S3) */
  endpoint: string | undefined;
  /** the S3 endpoint shown to customers (default: endpoint); null for the local provider */
  publicEndpoint: string | undefined;
  accessKey: string | undefined;
  secretKey: string | undefined;
  region: string;
  /** price of one GB-month where the object_storage_gb component has no price (decimal string) */
  gbMonthPrice: string;
  /** bytes in one quota GB: 2^30; NODE_ENV=test may lower it so a test can fill a bucket */
  quotaUnitBytes: number;
  /** the platform's own bucket for VM backups (ceph), or the folder under DATA_DIR (local) */
  backupBucket: string;
}

/** The sandbox gateways' published keys: fine for the local pages, never for real money. */
export const SANDBOX_GATEWAY_KEYS = {
  PGONE_MERCHANT_CODE: 'SANDBOX01',
  PGONE_API_KEY: 'sandbox-pgone-api-key',
  PGTWO_CALLBACK_SECRET: 'sandbox-pgtwo-callback-secret',
  PGTWO_API_KEY: 'sandbox-pgtwo-api-key',
} as const;

/**
 * NODE_ENV=production refuses what is only safe on a developer's machine: the sandbox payment
 * pages (anyone with a link could mark a top-up paid), the sandbox gateway keys (published), and
 * secrets generated into the data folder instead of given by the operator.
 */
function refuseUnsafeProductionDefaults(env: Env, paymentMode: PaymentMode): void {
  if (paymentMode !== 'live') throw new ConfigError('PAYMENT_MODE', 'must be live when NODE_ENV=production (the sandbox lets anyone mark a top-up paid)');
  for (const name of ['JWT_SECRET', 'ENCRYPTION_KEY'] as const) {
    if (str(env, name) === undefined) throw new ConfigError(name, 'must be set when NODE_ENV=production (a generated key in DATA_DIR is for development only)');
  }
  for (const [name, published] of Object.entries(SANDBOX_GATEWAY_KEYS)) {
    const value = str(env, name);
    if (value === undefined) throw new ConfigError(name, 'must be set when NODE_ENV=production');
    if (value === published) throw new ConfigError(name, 'must not be the published sandbox value when NODE_ENV=production');
  }
}

/** One clear line naming the variable; start-up prints it and exits. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be an integer, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!(values as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${values.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function url(env: Env, name: string, fallback?: string): string | undefined {
  const raw = str(env, name) ?? fallback;
  if (raw === undefined) return undefined;
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new ConfigError(name, `must be an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

function trustProxy(env: Env): boolean | number | string {
  const raw = str(env, 'TRUST_PROXY');
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (/^[0-9a-fA-F:./]+(\s*,\s*[0-9a-fA-F:./]+)*$/.test(raw)) return raw;
  throw new ConfigError('TRUST_PROXY', `must be true, false, a hop count or a comma-separated list of addresses/CIDRs, got "${raw}"`);
}

function databaseUrl(env: Env): string | undefined {
  const raw = str(env, 'DATABASE_URL');
  if (raw === undefined || raw === 'memory://') return raw;
  if (!/^postgres(ql)?:\/\//.test(raw)) {
    throw new ConfigError('DATABASE_URL', 'must be unset, memory:// or a postgres:// URL');
  }
  return raw;
}

/**
 * A secret that must survive restarts: taken from the environment, otherwise generated once and
 * kept in the data folder (or kept in memory only, for an in-memory database).
 */
function persistentSecret(env: Env, name: string, dataDir: string, persist: boolean, minLength: number): string {
  const given = str(env, name);
  if (given !== undefined) {
    if (given.length < minLength) throw new ConfigError(name, `must be at least ${minLength} characters`);
    return given;
  }
  if (!persist) return randomBytes(32).toString('hex');
  const file = path.join(dataDir, `${name.toLowerCase()}.key`);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = str(env, 'NODE_ENV') ?? 'development';
  const dataDir = path.resolve(str(env, 'DATA_DIR') ?? './data');
  const dbUrl = databaseUrl(env);
  const persist = dbUrl !== 'memory://';
  const port = int(env, 'PORT', 3000, 0, 65535);
  // before any secret is generated into the data folder
  if (nodeEnv === 'production') refuseUnsafeProductionDefaults(env, oneOf(env, 'PAYMENT_MODE', ['sandbox', 'live'] as const, 'sandbox'));
  const encryptionKeyHex = persistentSecret(env, 'ENCRYPTION_KEY', dataDir, persist, 64);
  if (!/^[0-9a-fA-F]{64}$/.test(encryptionKeyHex)) {
    throw new ConfigError('ENCRYPTION_KEY', 'must be 64 hex characters (32 bytes)');
  }
  const mailFrom = str(env, 'MAIL_FROM') ?? 'Cloud Platform <no-reply@cloud.local>';
  const smtpUrl = str(env, 'SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\//.test(smtpUrl)) {
    throw new ConfigError('SMTP_URL', 'must be an smtp:// or smtps:// URL');
  }
  const bootstrapAdminEmail = str(env, 'BOOTSTRAP_ADMIN_EMAIL');
  if (bootstrapAdminEmail !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(bootstrapAdminEmail)) {
    throw new ConfigError('BOOTSTRAP_ADMIN_EMAIL', 'must be an e-mail address');
  }
  const currency = str(env, 'CURRENCY') ?? 'IDR';
  if (!/^[A-Z]{3}$/.test(currency)) throw new ConfigError('CURRENCY', 'must be a 3-letter ISO 4217 code');

  const paymentMode = oneOf(env, 'PAYMENT_MODE', ['sandbox', 'live'] as const, 'sandbox');
  const metricsToken = str(env, 'METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 32) throw new ConfigError('METRICS_TOKEN', 'must be at least 32 characters');
  if (paymentMode === 'live') {
    for (const name of ['PGONE_MERCHANT_CODE', 'PGONE_API_KEY', 'PGTWO_CALLBACK_SECRET', 'PGTWO_API_KEY']) {
      if (str(env, name) === undefined) throw new ConfigError(name, 'is required when PAYMENT_MODE=live');
    }
  }

  const publicUrl = url(env, 'PUBLIC_URL', `http://localhost:${port}`)!;
  const consoleEnabled = bool(env, 'CONSOLE', true);

  return {
    port,
    host: str(env, 'HOST') ?? '0.0.0.0',
    dataDir,
    databaseUrl: dbUrl,
    publicUrl,
    // the console is the front end when it is served: mail links and the payment return land on its pages
    frontendUrl: url(env, 'FRONTEND_URL') ?? (consoleEnabled ? publicUrl : undefined),
    console: { enabled: consoleEnabled, dir: path.resolve(str(env, 'CONSOLE_DIR') ?? 'dist/console') },
    jwtSecret: persistentSecret(env, 'JWT_SECRET', dataDir, persist, 32),
    encryptionKey: Buffer.from(encryptionKeyHex, 'hex'),
    smtpUrl,
    mailFrom,
    bootstrapAdminEmail,
    bootstrapAdminPassword: str(env, 'BOOTSTRAP_ADMIN_PASSWORD'),
    paymentMode,
    pgoneMerchantCode: str(env, 'PGONE_MERCHANT_CODE') ?? SANDBOX_GATEWAY_KEYS.PGONE_MERCHANT_CODE,
    pgoneApiKey: str(env, 'PGONE_API_KEY') ?? SANDBOX_GATEWAY_KEYS.PGONE_API_KEY,
    pgtwoCallbackSecret: str(env, 'PGTWO_CALLBACK_SECRET') ?? SANDBOX_GATEWAY_KEYS.PGTWO_CALLBACK_SECRET,
    pgoneBaseUrl: url(env, 'PGONE_BASE_URL', 'https://api.pgone.example/merchant')!,
    pgtwoBaseUrl: url(env, 'PGTWO_BASE_URL', 'https://api.pgtwo.example')!,
    pgtwoApiKey: str(env, 'PGTWO_API_KEY') ?? SANDBOX_GATEWAY_KEYS.PGTWO_API_KEY,
    currency,
    topupExpiryHours: int(env, 'TOPUP_EXPIRY_HOURS', 24, 1, 24 * 30),
    cookieSecure: bool(env, 'COOKIE_SECURE', nodeEnv !== 'development' && nodeEnv !== 'test'),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    role: oneOf(env, 'ROLE', ['all', 'api', 'worker'] as const, 'all'),
    authRateLimitPerMin: int(env, 'AUTH_RATE_LIMIT_PER_MIN', 30, 1, 1_000_000),
    webhookRateLimitPerMin: int(env, 'WEBHOOK_RATE_LIMIT_PER_MIN', 600, 1, 1_000_000),
    trustProxy: trustProxy(env),
    databaseWaitMs: int(env, 'DATABASE_WAIT_TIMEOUT_MS', 10_000, 100, 600_000),
    metricsToken,
    nodeEnv,
    datacenter: oneOf(env, 'DATACENTER', ['simulated', 'libvirt'] as const, 'simulated'),
    libvirt: str(env, 'DATACENTER') === 'libvirt' ? libvirtConfig(env) : undefined,
    datacenterDelayMs: int(env, 'DATACENTER_DELAY_MS', nodeEnv === 'test' ? 0 : 2000, 0, 600_000),
    sseHeartbeatMs: int(env, 'SSE_HEARTBEAT_MS', 15_000, 100, 120_000),
    serialConsole: {
      ticketSeconds: 60,
      perVm: int(env, 'CONSOLE_SESSIONS_PER_VM', 2, 1, 100),
      perCustomer: int(env, 'CONSOLE_SESSIONS_PER_CUSTOMER', 5, 1, 1000),
      idleSeconds: int(env, 'CONSOLE_IDLE_SECONDS', 900, 1, 86_400),
      heartbeatSeconds: int(env, 'CONSOLE_HEARTBEAT_SECONDS', 15, 1, 300),
      maxMessageBytes: 16 * 1024,
    },
    platformTimeZone: timeZone(env, 'PLATFORM_TIME_ZONE', 'UTC'),
    objectStorage: objectStorageConfig(env, nodeEnv),
    webhookAllowPrivateTargets: webhookAllowPrivateTargets(env, nodeEnv),
    apiTokenRateLimitPerMin: int(env, 'API_TOKEN_RATE_LIMIT_PER_MIN', 600, 1, 1_000_000),
    apiTokenIpRateLimitPerMin: int(env, 'API_TOKEN_IP_RATE_LIMIT_PER_MIN', 1200, 1, 1_000_000),
  };
}

/** The outbound guard of webhook deliveries stays on in production, whatever the setting says. */
function webhookAllowPrivateTargets(env: Env, nodeEnv: string): boolean {
  const allow = bool(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false);
  if (allow && nodeEnv === 'production') throw new ConfigError('WEBHOOK_ALLOW_PRIVATE_TARGETS', 'cannot be on when NODE_ENV=production (webhooks would reach the internal network)');
  return allow;
}

function libvirtConfig(env: Env): LibvirtConfig {
  const file = str(env, 'LIBVIRT_CONFIG');
  if (file === undefined) throw new ConfigError('LIBVIRT_CONFIG', 'is required when DATACENTER=libvirt (a JSON file: see the README)');
  try {
    return loadLibvirtConfig(file);
  } catch (err) {
    if (err instanceof LibvirtConfigError) throw new ConfigError('LIBVIRT_CONFIG', `${err.message} (${file})`);
    throw err;
  }
}

function objectStorageConfig(env: Env, nodeEnv: string): ObjectStorageConfig {
  const provider = oneOf(env, 'OBJECT_STORAGE_PROVIDER', ['local', 'ceph'] as const, 'local');
  const endpoint = url(env, 'OBJECT_STORAGE_ENDPOINT');
  const accessKey = str(env, 'OBJECT_STORAGE_ACCESS_KEY');
  const secretKey = str(env, 'OBJECT_STORAGE_SECRET_KEY');
  if (provider === 'ceph') {
    if (!endpoint) throw new ConfigError('OBJECT_STORAGE_ENDPOINT', 'is required when OBJECT_STORAGE_PROVIDER=ceph');
    if (!accessKey) throw new ConfigError('OBJECT_STORAGE_ACCESS_KEY', 'is required when OBJECT_STORAGE_PROVIDER=ceph');
    if (!secretKey) throw new ConfigError('OBJECT_STORAGE_SECRET_KEY', 'is required when OBJECT_STORAGE_PROVIDER=ceph');
  }
  const gbMonthPrice = str(env, 'OBJECT_STORAGE_GB_MONTH_PRICE') ?? '1000';
  // a price like any other: the bound of every money input
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(gbMonthPrice) || !isMoneyInput(gbMonthPrice, false)) {
    throw new ConfigError('OBJECT_STORAGE_GB_MONTH_PRICE', `must be a decimal amount with at most 2 decimals, at most ${MONEY_INPUT_MAX}, got "${gbMonthPrice}"`);
  }
  const unitRaw = str(env, 'OBJECT_STORAGE_QUOTA_UNIT_BYTES');
  if (unitRaw !== undefined && nodeEnv !== 'test') throw new ConfigError('OBJECT_STORAGE_QUOTA_UNIT_BYTES', 'is a test setting (NODE_ENV=test only)');
  return {
    provider,
    endpoint,
    publicEndpoint: url(env, 'OBJECT_STORAGE_PUBLIC_URL') ?? (provider === 'ceph' ? endpoint : undefined),
    accessKey,
    secretKey,
    region: str(env, 'OBJECT_STORAGE_REGION') ?? 'us-east-1',
    gbMonthPrice,
    quotaUnitBytes: int(env, 'OBJECT_STORAGE_QUOTA_UNIT_BYTES', 1024 ** 3, 1024, 1024 ** 3),
    backupBucket: backupBucket(env),
  };
}

/** An S3 bucket name (3-63 lowercase letters, digits, dots and hyphens). */
function backupBucket(env: Env): string {
  const name = str(env, 'BACKUP_BUCKET') ?? 'platform-vm-backups';
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name)) throw new ConfigError('BACKUP_BUCKET', `must be an S3 bucket name (3-63 lowercase letters, digits, dots, hyphens), got "${name}"`);
  return name;
}

/**
 * An IANA time zone whose UTC offset is a whole number of hours in January and July of every year
 * from 1970 to 2100: the dashboard keeps its money totals in UTC hours and adds them up into this
 * zone's months. Checked once per zone name.
 */
const checkedTimeZones = new Map<string, string>();
function timeZone(env: Env, name: string, fallback: string): string {
  const raw = str(env, name) ?? fallback;
  const known = checkedTimeZones.get(raw);
  if (known) return known;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { timeZone: raw, hourCycle: 'h23', minute: 'numeric' });
  } catch {
    throw new ConfigError(name, `must be an IANA time zone such as UTC or Asia/Jakarta, got "${raw}"`);
  }
  for (let year = 1970; year <= 2100; year++) {
    for (const month of [0, 6]) {
      const minute = Number(format.formatToParts(new Date(Date.UTC(year, month, 1))).find((p) => p.type === 'minute')?.value);
      if (minute !== 0) throw new ConfigError(name, `must have whole-hour UTC offsets (the dashboard sums hourly buckets), got "${raw}"`);
    }
  }
  const zone = format.resolvedOptions().timeZone;
  checkedTimeZones.set(raw, zone);
  return zone;
}

/** Logs what a deployment should know about its configuration (a missing SMTP server, metrics token, data plane). */
export function warnAboutConfig(config: Config, log: { warn(msg: string): void; info(msg: string): void }): void {
  if (!config.smtpUrl && config.nodeEnv === 'production') {
    log.warn('SMTP_URL is not set: mail stays in the mail_outbox table and is not sent');
  }
  if (config.objectStorage.provider === 'local') {
    log[config.nodeEnv === 'production' ? 'warn' : 'info']('OBJECT_STORAGE_PROVIDER=local: buckets and access keys have no S3 data plane (no endpoint, no object data); OBJECT_STORAGE_PROVIDER=ceph gives one');
  }
  if (!config.metricsToken && config.nodeEnv === 'production') {
    log.warn('METRICS_TOKEN is not set: GET /metrics is not served; set it to scrape with Authorization: Bearer <token>');
  }
}
