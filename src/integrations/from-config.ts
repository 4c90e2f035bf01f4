import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Config } from '../config/index.js';
import { createDatacenter, type Datacenter } from './datacenter/index.js';
import { createBackupStore, createObjectStorage, type BlobStore, type ObjectStorageProvider } from './object-storage/index.js';
import { createPaymentGateways, type PaymentGateways } from './payment-gateways/index.js';

/** The outside systems as configured: payment gateways, the datacenter, the object storage backend. */
export interface OutsideSystems {
  gateways: PaymentGateways;
  /** where VMs run: the simulated datacenter unless configured otherwise */
  datacenter: Datacenter;
  /** the object storage backend (radosgw, or the local control plane) */
  objectStorage: ObjectStorageProvider & { close?(): void };
  /** the platform's own bucket of VM backups (on the same S3 server as the customers' buckets) */
  backupStore: BlobStore & { close?(): void };
}

/** `clock`: the payment gateways' (sandbox pages and signatures read the injected clock). */
export function createOutsideSystems(config: Config, clock: Parameters<typeof createPaymentGateways>[0]['clock']): OutsideSystems {
  const { pgoneMerchantCode, pgoneApiKey, pgoneBaseUrl, pgtwoCallbackSecret, pgtwoApiKey, pgtwoBaseUrl } = config;
  return {
    gateways: createPaymentGateways({
      mode: config.paymentMode,
      clock,
      publicUrl: config.publicUrl,
      pgone: { merchantCode: pgoneMerchantCode, apiKey: pgoneApiKey, baseUrl: pgoneBaseUrl },
      pgtwo: { callbackSecret: pgtwoCallbackSecret, apiKey: pgtwoApiKey, baseUrl: pgtwoBaseUrl },
    }),
    datacenter: createDatacenter({ kind: config.datacenter, delayMs: config.datacenterDelayMs, libvirt: config.libvirt }),
    objectStorage: createObjectStorage({
      ...config.objectStorage,
      // the embedded database on disk: the local storage keeps its state beside it
      ...(config.databaseUrl === undefined ? { localStateFile: path.join(config.dataDir, 'object-storage.json') } : {}),
    }),
    // local: beside the embedded database on disk; a throw-away folder for a database elsewhere (tests, memory://)
    backupStore: createBackupStore(
      config.objectStorage,
      config.databaseUrl === undefined ? path.join(config.dataDir, 'backups') : config.objectStorage.provider === 'local' ? mkdtempSync(path.join(tmpdir(), 'chp-backups-')) : '',
    ),
  };
}
