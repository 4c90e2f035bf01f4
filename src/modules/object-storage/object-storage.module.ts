import type { ObjectStorageProvider } from '../../integrations/object-storage/index.js';
import type { Metering } from '../../platform/metering.js';
import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { BillableStartRule } from '../charging/index.js';
import type { PricingService } from '../pricing/index.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import { ObjectStorageRepository } from './object-storage.repository.js';
import { objectStorageRoutes } from './object-storage.routes.js';
import { ObjectStorageService } from './object-storage.service.js';
import { objectStorageConstraintMeanings } from './object-storage.tables.js';

export interface ObjectStorageDeps {
  /** the backend (radosgw, or the local control plane) */
  backend: ObjectStorageProvider;
  pricing: PricingService;
  metering: Metering;
  billableStart: BillableStartRule;
  webhookEvents: WebhookEmitter;
}

/** Buckets and access keys; backend calls run in the resource lifecycle's jobs. */
export function createObjectStorageModule(p: Platform, deps: ObjectStorageDeps) {
  const { config } = p;
  const objectStorage = new ObjectStorageService(p.db, new ObjectStorageRepository(), deps.backend, p.lifecycle, deps.metering, deps.pricing, deps.billableStart, p.clock, p.log, {
    encryptionKey: config.encryptionKey,
    quotaUnitBytes: config.objectStorage.quotaUnitBytes,
    gbMonthPrice: config.objectStorage.gbMonthPrice,
    currency: config.currency,
    publicEndpoint: config.objectStorage.publicEndpoint,
  }, deps.webhookEvents);
  return {
    services: { objectStorage },
    resources: [objectStorage.buckets, objectStorage.keys],
    routes: [mount('customer', objectStorageRoutes, { prefix: '/api/storage/object', storage: objectStorage })],
    constraints: objectStorageConstraintMeanings,
  } satisfies BuiltModule;
}
