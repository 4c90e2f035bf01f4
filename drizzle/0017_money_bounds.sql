-- The bound of every money input (MONEY_INPUT_MAX) and of metered quantities (METER_QUANTITY_MAX).
-- Rows written before the bound are kept (NOT VALID: price versions are immutable history); new rows are checked.
-- A waiting price change above the bound could never be applied: it is cancelled.
UPDATE "price_schedules" SET "status" = 'cancelled', "cancelled_at" = now() WHERE "status" = 'waiting' AND "monthly_price" > 1000000000;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_quantity_bounded" CHECK ("meters"."quantity" <= 1000000) NOT VALID;--> statement-breakpoint
ALTER TABLE "price_versions" ADD CONSTRAINT "price_versions_bounded" CHECK ("price_versions"."monthly_price" <= 1000000000) NOT VALID;--> statement-breakpoint
ALTER TABLE "price_schedules" ADD CONSTRAINT "price_schedules_bounded" CHECK ("price_schedules"."monthly_price" <= 1000000000) NOT VALID;
