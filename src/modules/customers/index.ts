export { CustomersRepository } from './customers.repository.js';
export { CustomersService, type CustomersPorts } from './customers.service.js';
export { customersRoutes } from './customers.routes.js';
export {
  zeroBalances,
  noResourceUsage,
  noNotifications,
  type BalanceReader,
  type ResourceUsageReader,
  type UnreadCounter,
  type SessionLimiter,
} from './customers.ports.js';
export { AdminCustomerListItem, AdminCustomerDetail, AdminCustomerPatch, AdminCustomerListQuery, CustomerSummary } from './customers.schemas.js';
export { customersConstraintMeanings } from './customers.tables.js';
export { customerQuotaLock, type CustomerQuota, type CustomerQuotaLock } from './customers.quota-lock.js';
