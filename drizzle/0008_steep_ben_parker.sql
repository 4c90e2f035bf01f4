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
ALTER TABLE "billing_notices" ADD CONSTRAINT "billing_notices_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meters" ADD CONSTRAINT "meters_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_notices_unique" ON "billing_notices" USING btree ("customer_id","kind","episode");--> statement-breakpoint
CREATE INDEX "meters_customer_idx" ON "meters" USING btree ("customer_id","started_at");--> statement-breakpoint
CREATE INDEX "meters_resource_idx" ON "meters" USING btree ("resource_type","resource_id");--> statement-breakpoint
CREATE UNIQUE INDEX "meters_open_unique" ON "meters" USING btree ("resource_type","resource_id","price_key") WHERE "meters"."stopped_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "usage_charges_customer_hour_unique" ON "usage_charges" USING btree ("customer_id","hour");