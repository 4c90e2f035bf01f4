export { CustomersRepository, type CustomerRecord } from './customers.repository.js';
export { CustomersService, type CustomerAccount, type CustomersPorts } from './customers.service.js';
export { customerDetailView, customerListItemView } from './customers.present.js';
export { customersRoutes } from './customers.routes.js';
export {
  type BalanceReader,
  type ResourceUsageReader,
  type UnreadCounter,
  type SessionLimiter,
} from './customers.ports.js';
export { AdminCustomerListItem, AdminCustomerDetail, AdminCustomerPatch, AdminCustomerListQuery, CustomerSummary } from './customers.schemas.js';
export { customersConstraintMeanings } from './customers.tables.js';
export { customerQuotaLock, type CustomerQuota, type CustomerQuotaLock } from './customers.quota-lock.js';
export { createCustomersModule } from './customers.module.js';
