CREATE TABLE "charge_failures" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "charge_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"first_hour" timestamp with time zone NOT NULL,
	"error_code" text NOT NULL,
	"error" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"failed_at" timestamp with time zone NOT NULL,
	"last_attempt_at" timestamp with time zone NOT NULL,
	"next_retry_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "charge_failures" ADD CONSTRAINT "charge_failures_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "charge_failures_open_unique" ON "charge_failures" USING btree ("customer_id") WHERE "charge_failures"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "postpaid_payments_open_idx" ON "postpaid_payments" USING btree ("customer_id") WHERE "postpaid_payments"."status" = 'PENDING';--> statement-breakpoint
-- The bound of every money input (MONEY_INPUT_MAX) and of metered quantities (METER_QUANTITY_MAX).
-- Rows written before the bound are kept (NOT VALID: price versions are immutable history); new rows are checked.
-- A waiting price change above the bound could never be applied: it is cancelled.
UPDATE "price_schedules" SET "status" = 'cancelled', "cancelled_at" = now() WHERE "status" = 'waiting' AND "monthly_price" > 1000000000;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_quantity_bounded" CHECK ("meters"."quantity" <= 1000000) NOT VALID;--> statement-breakpoint
ALTER TABLE "price_versions" ADD CONSTRAINT "price_versions_bounded" CHECK ("price_versions"."monthly_price" <= 1000000000) NOT VALID;--> statement-breakpoint
ALTER TABLE "price_schedules" ADD CONSTRAINT "price_schedules_bounded" CHECK ("price_schedules"."monthly_price" <= 1000000000) NOT VALID;