CREATE TABLE "billing_notices" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "billing_notices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"kind" text NOT NULL,
	"episode" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charge_hours" (
	"hour" timestamp with time zone PRIMARY KEY NOT NULL,
	"cursor_customer_id" integer DEFAULT 0 NOT NULL,
	"usage_rows" bigint DEFAULT 0 NOT NULL,
	"customers" integer DEFAULT 0 NOT NULL,
	"charged" numeric(18, 2) DEFAULT '0' NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "charging_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"runway_warning_hours" integer DEFAULT 72 NOT NULL,
	"low_balance_warning_hours" integer DEFAULT 24 NOT NULL,
	"postpaid_due_days" integer DEFAULT 14 NOT NULL,
	"postpaid_suspend_grace_days" integer DEFAULT 7 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "charging_settings_singleton" CHECK ("charging_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "meters" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "meters_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"resource_type" text NOT NULL,
	"resource_id" text NOT NULL,
	"description" text NOT NULL,
	"price_key" text NOT NULL,
	"location_id" integer NOT NULL,
	"quantity" numeric(18, 6) DEFAULT '1' NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meters_quantity_positive" CHECK ("meters"."quantity" > 0),
	CONSTRAINT "meters_period" CHECK ("meters"."stopped_at" is null or "meters"."stopped_at" >= "meters"."started_at")
);
--> statement-breakpoint
CREATE TABLE "usage_charges" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "usage_charges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"postpaid" boolean NOT NULL,
	"usage_rows" integer NOT NULL,
	"usage_amount" numeric(20, 6) NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"carry" numeric(10, 6) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_records" (
	"meter_id" bigint NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"customer_id" integer NOT NULL,
	"price_version_id" bigint,
	"hourly_price" numeric(18, 6) NOT NULL,
	"quantity" numeric(18, 6) NOT NULL,
	"seconds" integer NOT NULL,
	"amount" numeric(20, 6) NOT NULL,
	CONSTRAINT "usage_records_pkey" PRIMARY KEY("meter_id","hour")
);
--> statement-breakpoint
CREATE TABLE "postpaid_invoice_lines" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "postpaid_invoice_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"invoice_id" uuid NOT NULL,
	"meter_id" bigint NOT NULL,
	"resource_type" text NOT NULL,
	"resource_id" text NOT NULL,
	"description" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"hours" integer NOT NULL,
	"usage_amount" numeric(20, 6) NOT NULL,
	"amount" numeric(18, 2) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "postpaid_invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"customer_id" integer NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'UNPAID' NOT NULL,
	"subtotal" numeric(18, 2) NOT NULL,
	"amount_paid" numeric(18, 2) DEFAULT '0' NOT NULL,
	"currency" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"overdue_at" timestamp with time zone,
	"reminder_sent_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"paid_note" text,
	"verified_by_admin_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "postpaid_invoices_status" CHECK ("postpaid_invoices"."status" in ('UNPAID', 'OVERDUE', 'PAID')),
	CONSTRAINT "postpaid_invoices_paid_le_subtotal" CHECK ("postpaid_invoices"."amount_paid" >= 0 and "postpaid_invoices"."amount_paid" <= "postpaid_invoices"."subtotal")
);
--> statement-breakpoint
CREATE TABLE "postpaid_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" integer NOT NULL,
	"invoice_ids" uuid[] NOT NULL,
	"total" numeric(18, 2) NOT NULL,
	"wallet_amount" numeric(18, 2) NOT NULL,
	"remainder" numeric(18, 2) NOT NULL,
	"topup_invoice_id" uuid,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "billing_notices" ADD CONSTRAINT "billing_notices_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postpaid_invoice_lines" ADD CONSTRAINT "postpaid_invoice_lines_invoice_id_postpaid_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."postpaid_invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postpaid_invoices" ADD CONSTRAINT "postpaid_invoices_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postpaid_payments" ADD CONSTRAINT "postpaid_payments_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_notices_unique" ON "billing_notices" USING btree ("customer_id","kind","episode");--> statement-breakpoint
CREATE INDEX "meters_customer_idx" ON "meters" USING btree ("customer_id","started_at","stopped_at");--> statement-breakpoint
CREATE INDEX "meters_resource_idx" ON "meters" USING btree ("resource_type","resource_id");--> statement-breakpoint
CREATE UNIQUE INDEX "meters_open_unique" ON "meters" USING btree ("resource_type","resource_id","price_key") WHERE "meters"."stopped_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "usage_charges_customer_hour_unique" ON "usage_charges" USING btree ("customer_id","hour");--> statement-breakpoint
CREATE INDEX "usage_charges_postpaid_hour_idx" ON "usage_charges" USING btree ("hour") WHERE "usage_charges"."postpaid";--> statement-breakpoint
CREATE INDEX "postpaid_invoice_lines_invoice_idx" ON "postpaid_invoice_lines" USING btree ("invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "postpaid_invoices_customer_period_unique" ON "postpaid_invoices" USING btree ("customer_id","period_start");--> statement-breakpoint
CREATE UNIQUE INDEX "postpaid_invoices_number_unique" ON "postpaid_invoices" USING btree ("number");--> statement-breakpoint
CREATE INDEX "postpaid_invoices_status_idx" ON "postpaid_invoices" USING btree ("status","due_at");--> statement-breakpoint
CREATE INDEX "postpaid_payments_topup_idx" ON "postpaid_payments" USING btree ("topup_invoice_id");