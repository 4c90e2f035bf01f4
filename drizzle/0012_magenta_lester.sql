CREATE TABLE "dashboard_counter_deltas" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dashboard_counter_deltas_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"location_id" integer DEFAULT 0 NOT NULL,
	"key" text DEFAULT '' NOT NULL,
	"value" numeric(20, 2) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dashboard_counters" (
	"name" text NOT NULL,
	"location_id" integer DEFAULT 0 NOT NULL,
	"key" text DEFAULT '' NOT NULL,
	"value" numeric(20, 2) NOT NULL,
	CONSTRAINT "dashboard_counters_pk" PRIMARY KEY("name","location_id","key")
);
--> statement-breakpoint
CREATE TABLE "dashboard_hourly_totals" (
	"metric" text NOT NULL,
	"source" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	"entries" integer NOT NULL,
	CONSTRAINT "dashboard_hourly_totals_pk" PRIMARY KEY("metric","hour","source"),
	CONSTRAINT "dashboard_hourly_totals_metric" CHECK ("dashboard_hourly_totals"."metric" in ('revenue', 'deposit'))
);
--> statement-breakpoint
CREATE INDEX "balance_logs_deposit_time_idx" ON "balance_logs" USING btree ("created_at","customer_id") WHERE "balance_logs"."type" = 'BalanceLogAdd';