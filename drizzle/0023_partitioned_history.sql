-- Monthly range partitions for the tables that grow by the hour or by the event, a per-day
-- roll-up of usage records, the retention settings, and the unique keys that a partitioned table
-- cannot hold (balance_log_references, notification_keys: a unique index of a partitioned table
-- must contain its partition key). Hand-written: drizzle-kit does not generate partitioning.
--
-- Each existing table is converted keeping every row and every id: the old table is renamed, the
-- partitioned one created with the same columns, defaults, checks and identity, one partition
-- made for every month its rows fall in plus a DEFAULT partition (so no row can ever miss a
-- partition), the rows copied, the identity sequence carried over, the old table dropped, and the
-- keys, indexes and foreign keys created on the partitioned table. Triggers come back from
-- drizzle/routines, applied after the migrations.
CREATE TABLE "balance_log_references" (
	"type" text NOT NULL,
	"reference_type" text NOT NULL,
	"reference_id" text NOT NULL,
	CONSTRAINT "balance_log_references_pkey" PRIMARY KEY("type","reference_type","reference_id")
);
--> statement-breakpoint
CREATE TABLE "notification_keys" (
	"customer_id" integer NOT NULL,
	"kind" text NOT NULL,
	"reference_type" text NOT NULL,
	"reference_id" text NOT NULL,
	CONSTRAINT "notification_keys_pkey" PRIMARY KEY("customer_id","kind","reference_type","reference_id")
);
--> statement-breakpoint
ALTER TABLE "notification_keys" ADD CONSTRAINT "notification_keys_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "retention_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"usage_raw_months" integer DEFAULT 3 NOT NULL,
	"audit_log_months" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "retention_settings_singleton" CHECK ("retention_settings"."id" = 1),
	CONSTRAINT "retention_settings_usage_months" CHECK ("retention_settings"."usage_raw_months" between 2 and 120),
	CONSTRAINT "retention_settings_audit_months" CHECK ("retention_settings"."audit_log_months" is null or "retention_settings"."audit_log_months" between 12 and 240)
);
--> statement-breakpoint
-- The partition of one UTC month of a partitioned table, created when missing (true) together with
-- the table's DEFAULT partition. Rows of that month that went to the DEFAULT partition meanwhile
-- are moved into the new one: the default is detached (its cloned triggers go with the detach, so
-- the append-only triggers do not stand in the way and no insert trigger fires twice), the month's
-- rows copied into a plain table and deleted from it, then both are attached again.
CREATE OR REPLACE FUNCTION ensure_monthly_partition(parent regclass, at timestamptz) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  base text := (SELECT relname FROM pg_class WHERE oid = parent);
  key text := (SELECT a.attname FROM pg_partitioned_table p JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0] WHERE p.partrelid = parent);
  lo_utc timestamp := date_trunc('month', at AT TIME ZONE 'UTC');
  lo timestamptz := lo_utc AT TIME ZONE 'UTC';
  hi timestamptz := (lo_utc + interval '1 month') AT TIME ZONE 'UTC';
  part text := base || '_p' || to_char(lo_utc, 'YYYYMM');
  def text := base || '_default';
  moving boolean;
BEGIN
  IF key IS NULL THEN RAISE EXCEPTION '% is not a partitioned table', parent; END IF;
  IF to_regclass(format('%I', def)) IS NULL THEN
    EXECUTE format('CREATE TABLE %I PARTITION OF %s DEFAULT', def, parent);
  END IF;
  IF to_regclass(format('%I', part)) IS NOT NULL THEN RETURN false; END IF;
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE %I >= $1 AND %I < $2)', def, key, key) INTO moving USING lo, hi;
  IF NOT moving THEN
    EXECUTE format('CREATE TABLE %I PARTITION OF %s FOR VALUES FROM (%L) TO (%L)', part, parent, lo, hi);
    RETURN true;
  END IF;
  EXECUTE format('ALTER TABLE %s DETACH PARTITION %I', parent, def);
  EXECUTE format('CREATE TABLE %I (LIKE %s INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', part, parent);
  EXECUTE format('INSERT INTO %I SELECT * FROM %I WHERE %I >= $1 AND %I < $2', part, def, key, key) USING lo, hi;
  EXECUTE format('DELETE FROM %I WHERE %I >= $1 AND %I < $2', def, key, key) USING lo, hi;
  EXECUTE format('ALTER TABLE %s ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, part, lo, hi);
  EXECUTE format('ALTER TABLE %s ATTACH PARTITION %I DEFAULT', parent, def);
  RETURN true;
END;
$$;
--> statement-breakpoint
CREATE TABLE "usage_daily" (
	"meter_id" bigint NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"customer_id" integer NOT NULL,
	"hours" integer NOT NULL,
	"seconds" bigint NOT NULL,
	"amount" numeric(24, 6) NOT NULL
) PARTITION BY RANGE ("day");
--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_pkey" PRIMARY KEY ("meter_id","day");
--> statement-breakpoint
CREATE INDEX "usage_daily_customer_idx" ON "usage_daily" USING btree ("customer_id","day");
--> statement-breakpoint
SELECT ensure_monthly_partition('usage_daily', now());
--> statement-breakpoint
-- usage_records, partitioned by month of hour
ALTER TABLE "usage_records" RENAME TO "usage_records_unpartitioned";
--> statement-breakpoint
CREATE TABLE "usage_records" (LIKE "usage_records_unpartitioned" INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE ("hour");
--> statement-breakpoint
SELECT ensure_monthly_partition('usage_records', m) FROM (SELECT DISTINCT date_trunc('month', "hour" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS m FROM "usage_records_unpartitioned" UNION SELECT now()) months;
--> statement-breakpoint
INSERT INTO "usage_records" SELECT * FROM "usage_records_unpartitioned";
--> statement-breakpoint
DROP TABLE "usage_records_unpartitioned";
--> statement-breakpoint
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_pkey" PRIMARY KEY ("meter_id","hour");
--> statement-breakpoint
-- usage_charges, partitioned by month of hour
ALTER TABLE "usage_charges" RENAME TO "usage_charges_unpartitioned";
--> statement-breakpoint
ALTER SEQUENCE "usage_charges_id_seq" RENAME TO "usage_charges_unpartitioned_id_seq";
--> statement-breakpoint
CREATE TABLE "usage_charges" (LIKE "usage_charges_unpartitioned" INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING IDENTITY) PARTITION BY RANGE ("hour");
--> statement-breakpoint
SELECT ensure_monthly_partition('usage_charges', m) FROM (SELECT DISTINCT date_trunc('month', "hour" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS m FROM "usage_charges_unpartitioned" UNION SELECT now()) months;
--> statement-breakpoint
INSERT INTO "usage_charges" OVERRIDING SYSTEM VALUE SELECT * FROM "usage_charges_unpartitioned";
--> statement-breakpoint
SELECT setval('"usage_charges_id_seq"', last_value, is_called) FROM "usage_charges_unpartitioned_id_seq";
--> statement-breakpoint
DROP TABLE "usage_charges_unpartitioned";
--> statement-breakpoint
ALTER TABLE "usage_charges" ADD CONSTRAINT "usage_charges_pkey" PRIMARY KEY ("id","hour");
--> statement-breakpoint
CREATE UNIQUE INDEX "usage_charges_customer_hour_unique" ON "usage_charges" USING btree ("customer_id","hour");
--> statement-breakpoint
CREATE INDEX "usage_charges_postpaid_hour_idx" ON "usage_charges" USING btree ("hour") WHERE "usage_charges"."postpaid";
--> statement-breakpoint
-- balance_logs, partitioned by month of created_at
ALTER TABLE "balance_logs" RENAME TO "balance_logs_unpartitioned";
--> statement-breakpoint
ALTER SEQUENCE "balance_logs_id_seq" RENAME TO "balance_logs_unpartitioned_id_seq";
--> statement-breakpoint
CREATE TABLE "balance_logs" (LIKE "balance_logs_unpartitioned" INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING IDENTITY) PARTITION BY RANGE ("created_at");
--> statement-breakpoint
SELECT ensure_monthly_partition('balance_logs', m) FROM (SELECT DISTINCT date_trunc('month', "created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS m FROM "balance_logs_unpartitioned" UNION SELECT now()) months;
--> statement-breakpoint
INSERT INTO "balance_logs" OVERRIDING SYSTEM VALUE SELECT * FROM "balance_logs_unpartitioned";
--> statement-breakpoint
SELECT setval('"balance_logs_id_seq"', last_value, is_called) FROM "balance_logs_unpartitioned_id_seq";
--> statement-breakpoint
INSERT INTO "balance_log_references" ("type", "reference_type", "reference_id") SELECT "type", "reference_type", "reference_id" FROM "balance_logs_unpartitioned";
--> statement-breakpoint
DROP TABLE "balance_logs_unpartitioned";
--> statement-breakpoint
ALTER TABLE "balance_logs" ADD CONSTRAINT "balance_logs_pkey" PRIMARY KEY ("id","created_at");
--> statement-breakpoint
CREATE INDEX "balance_logs_reference_idx" ON "balance_logs" USING btree ("type","reference_type","reference_id");
--> statement-breakpoint
CREATE INDEX "balance_logs_customer_idx" ON "balance_logs" USING btree ("customer_id","id");
--> statement-breakpoint
CREATE INDEX "balance_logs_deposit_time_idx" ON "balance_logs" USING btree ("created_at","customer_id") WHERE "balance_logs"."type" = 'BalanceLogAdd';
--> statement-breakpoint
ALTER TABLE "balance_logs" ADD CONSTRAINT "balance_logs_customer_id_wallets_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."wallets"("customer_id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
-- audit_logs, partitioned by month of created_at
ALTER TABLE "audit_logs" RENAME TO "audit_logs_unpartitioned";
--> statement-breakpoint
ALTER SEQUENCE "audit_logs_id_seq" RENAME TO "audit_logs_unpartitioned_id_seq";
--> statement-breakpoint
CREATE TABLE "audit_logs" (LIKE "audit_logs_unpartitioned" INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING IDENTITY) PARTITION BY RANGE ("created_at");
--> statement-breakpoint
SELECT ensure_monthly_partition('audit_logs', m) FROM (SELECT DISTINCT date_trunc('month', "created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS m FROM "audit_logs_unpartitioned" UNION SELECT now()) months;
--> statement-breakpoint
INSERT INTO "audit_logs" OVERRIDING SYSTEM VALUE SELECT * FROM "audit_logs_unpartitioned";
--> statement-breakpoint
SELECT setval('"audit_logs_id_seq"', last_value, is_called) FROM "audit_logs_unpartitioned_id_seq";
--> statement-breakpoint
DROP TABLE "audit_logs_unpartitioned";
--> statement-breakpoint
ALTER TABLE "audit_logs" ADD CONSTRAINT "audit_logs_pkey" PRIMARY KEY ("id","created_at");
--> statement-breakpoint
CREATE INDEX "audit_logs_created_idx" ON "audit_logs" USING btree ("created_at");
--> statement-breakpoint
CREATE INDEX "audit_logs_actor_idx" ON "audit_logs" USING btree ("actor_type","actor_id","id");
--> statement-breakpoint
CREATE INDEX "audit_logs_target_idx" ON "audit_logs" USING btree ("target_type","target_id");
--> statement-breakpoint
CREATE INDEX "audit_logs_action_idx" ON "audit_logs" USING btree ("action");
--> statement-breakpoint
-- notifications, partitioned by month of created_at
ALTER TABLE "notifications" RENAME TO "notifications_unpartitioned";
--> statement-breakpoint
ALTER SEQUENCE "notifications_id_seq" RENAME TO "notifications_unpartitioned_id_seq";
--> statement-breakpoint
CREATE TABLE "notifications" (LIKE "notifications_unpartitioned" INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING IDENTITY) PARTITION BY RANGE ("created_at");
--> statement-breakpoint
SELECT ensure_monthly_partition('notifications', m) FROM (SELECT DISTINCT date_trunc('month', "created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS m FROM "notifications_unpartitioned" UNION SELECT now()) months;
--> statement-breakpoint
INSERT INTO "notifications" OVERRIDING SYSTEM VALUE SELECT * FROM "notifications_unpartitioned";
--> statement-breakpoint
SELECT setval('"notifications_id_seq"', last_value, is_called) FROM "notifications_unpartitioned_id_seq";
--> statement-breakpoint
INSERT INTO "notification_keys" ("customer_id", "kind", "reference_type", "reference_id") SELECT "customer_id", "kind", "reference_type", "reference_id" FROM "notifications_unpartitioned";
--> statement-breakpoint
DROP TABLE "notifications_unpartitioned";
--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_pkey" PRIMARY KEY ("id","created_at");
--> statement-breakpoint
CREATE INDEX "notifications_customer_idx" ON "notifications" USING btree ("customer_id","id");
--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("customer_id") WHERE "notifications"."read_at" is null;
--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- ticket_events, partitioned by month of created_at
ALTER TABLE "ticket_events" RENAME TO "ticket_events_unpartitioned";
--> statement-breakpoint
ALTER SEQUENCE "ticket_events_id_seq" RENAME TO "ticket_events_unpartitioned_id_seq";
--> statement-breakpoint
CREATE TABLE "ticket_events" (LIKE "ticket_events_unpartitioned" INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING IDENTITY) PARTITION BY RANGE ("created_at");
--> statement-breakpoint
SELECT ensure_monthly_partition('ticket_events', m) FROM (SELECT DISTINCT date_trunc('month', "created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS m FROM "ticket_events_unpartitioned" UNION SELECT now()) months;
--> statement-breakpoint
INSERT INTO "ticket_events" OVERRIDING SYSTEM VALUE SELECT * FROM "ticket_events_unpartitioned";
--> statement-breakpoint
SELECT setval('"ticket_events_id_seq"', last_value, is_called) FROM "ticket_events_unpartitioned_id_seq";
--> statement-breakpoint
DROP TABLE "ticket_events_unpartitioned";
--> statement-breakpoint
ALTER TABLE "ticket_events" ADD CONSTRAINT "ticket_events_pkey" PRIMARY KEY ("id","created_at");
--> statement-breakpoint
CREATE INDEX "ticket_events_created_idx" ON "ticket_events" USING btree ("created_at");
--> statement-breakpoint
-- payment_callbacks, partitioned by month of received_at
ALTER TABLE "payment_callbacks" RENAME TO "payment_callbacks_unpartitioned";
--> statement-breakpoint
ALTER SEQUENCE "payment_callbacks_id_seq" RENAME TO "payment_callbacks_unpartitioned_id_seq";
--> statement-breakpoint
CREATE TABLE "payment_callbacks" (LIKE "payment_callbacks_unpartitioned" INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING IDENTITY) PARTITION BY RANGE ("received_at");
--> statement-breakpoint
SELECT ensure_monthly_partition('payment_callbacks', m) FROM (SELECT DISTINCT date_trunc('month', "received_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS m FROM "payment_callbacks_unpartitioned" UNION SELECT now()) months;
--> statement-breakpoint
INSERT INTO "payment_callbacks" OVERRIDING SYSTEM VALUE SELECT * FROM "payment_callbacks_unpartitioned";
--> statement-breakpoint
SELECT setval('"payment_callbacks_id_seq"', last_value, is_called) FROM "payment_callbacks_unpartitioned_id_seq";
--> statement-breakpoint
DROP TABLE "payment_callbacks_unpartitioned";
--> statement-breakpoint
ALTER TABLE "payment_callbacks" ADD CONSTRAINT "payment_callbacks_pkey" PRIMARY KEY ("id","received_at");
--> statement-breakpoint
CREATE INDEX "payment_callbacks_invoice_idx" ON "payment_callbacks" USING btree ("claimed_invoice_id");
--> statement-breakpoint
CREATE INDEX "payment_callbacks_received_idx" ON "payment_callbacks" USING btree ("received_at");
