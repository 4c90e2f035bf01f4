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