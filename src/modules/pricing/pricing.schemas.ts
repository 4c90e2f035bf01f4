import { Type } from 'typebox';
import { IntId, Instant, Money, MoneyAmount, MoneyInput, StrictObject, Timestamp } from '../../platform/http/schemas.js';

export const Component = Type.Object({
  id: Type.Integer(),
  code: Type.String({ description: 'stable: vcpu, ram_gb, disk_gb, public_ip, private_network, object_storage_gb, block_storage_gb, vm_tier' }),
  name: Type.String(),
  type: Type.String({ enum: ['compute', 'storage', 'network'] }),
  unit: Type.String(),
  tier_own_price: Type.Boolean({ description: 'a tier may carry its own price of it (update-tier with this component_id); the package (vm_tier) is the tier price itself' }),
});

export const PriceRow = Type.Object({
  id: Type.Integer({ description: 'the price version' }),
  price_key: Type.String({ description: 'component:<id>, tier:<id> (the package), tier:<id>:component:<id> (a tier\'s own price of a component), storage_tier:<id>' }),
  location_id: Type.Integer(),
  component_id: Type.Union([Type.Integer(), Type.Null()], { description: 'the component priced: a tier row names vm_tier for its package, a storage tier row block_storage_gb' }),
  tier_id: Type.Union([Type.Integer(), Type.Null()]),
  storage_tier_id: Type.Union([Type.Integer(), Type.Null()]),
  monthly_price: Money,
  price_per_hour: Type.Number({ description: 'monthly_price / 730, 6 decimals' }),
  effective_from: Timestamp,
});

const ScheduleStatus = Type.Union([Type.Literal('waiting'), Type.Literal('applied'), Type.Literal('cancelled')]);

export const PriceSchedule = Type.Object({
  id: Type.Integer(),
  price_key: Type.String(),
  item_type: Type.Union([Type.Literal('component'), Type.Literal('tier'), Type.Literal('storage_tier')]),
  component_id: Type.Union([Type.Integer(), Type.Null()]),
  tier_id: Type.Union([Type.Integer(), Type.Null()]),
  storage_tier_id: Type.Union([Type.Integer(), Type.Null()]),
  location_id: Type.Union([Type.Integer(), Type.Null()], { description: "null: a tier's price in every location where the tier is offered" }),
  monthly_price: Money,
  hourly_price: Type.Number({ description: 'monthly_price / 730, 6 decimals' }),
  effective_date: Timestamp,
  status: ScheduleStatus,
  created_at: Timestamp,
  applied_at: Type.Union([Timestamp, Type.Null()]),
  cancelled_at: Type.Union([Timestamp, Type.Null()]),
});

export const ScheduleImpact = Type.Object({
  schedule_id: Type.Integer(),
  price_key: Type.String(),
  location_id: Type.Union([Type.Integer(), Type.Null()], { description: 'null: every location where the tier is offered (the figures add them up)' }),
  status: ScheduleStatus,
  effective_date: Timestamp,
  current_monthly_price: Type.Union([Money, Type.Null()]),
  new_monthly_price: Money,
  affected_resources: Type.Integer({ description: 'running resources priced by this key in the location' }),
  affected_quantity: Type.Number({ description: 'units of the key they use (VMs, IPs, GB)' }),
  running_resources: Type.Integer(),
  monthly_revenue_before: MoneyAmount({ description: "the location's running resources at today's prices" }),
  monthly_revenue_after: MoneyAmount({ description: 'the same with the new price' }),
  monthly_revenue_change: Money,
});

const MonthlyPrice = MoneyInput({ positive: false, description: 'per month (per unit); the hourly price is monthly / 730 (6 decimals)' });

export const UpdateLocationPriceBody = StrictObject({ location_id: IntId, component_id: IntId, monthly_price: MonthlyPrice, effective_date: Instant });
export const UpdateTierPriceBody = StrictObject({
  tier_id: IntId,
  location_id: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 2147483647, description: 'narrows the price to one location; without it the price applies wherever the tier is offered (a tier bound to a location: there)' }),
  ),
  component_id: Type.Optional(IntId),
  monthly_price: MonthlyPrice,
  effective_date: Instant,
});
export const UpdateStorageTierPriceBody = StrictObject({ storage_tier_id: IntId, location_id: IntId, monthly_price: MonthlyPrice, effective_date: Instant });

export const PriceChangeImpact = Type.Omit(ScheduleImpact, ['schedule_id', 'status']);
export const PricePreviewQuery = Type.Object({
  monthly_price: MonthlyPrice,
  effective_date: Type.Optional(Instant),
  location_id: Type.Optional(IntId),
  component_id: Type.Optional(IntId),
  tier_id: Type.Optional(IntId),
  storage_tier_id: Type.Optional(IntId),
});

export const ScheduleListQuery = Type.Object({ status: Type.Optional(ScheduleStatus) });
export const IdParams = Type.Object({ id: IntId });
export const LocationParams = Type.Object({ location_id: IntId });
export const TierParams = Type.Object({ tier_id: IntId });
