-- VM metrics at three resolutions, each partitioned by range of its period (minute: daily
-- partitions kept 2 days; 5 minutes: daily, 30 days; hour: monthly, 13 months), the last
-- counters per VM, the monthly traffic and the progress of collection and roll-ups.
-- PARTITION BY and the function at the end are hand-written: drizzle-kit generates neither.
CREATE TABLE "vm_metric_counters" (
	"vm_id" integer PRIMARY KEY NOT NULL,
	"sampled_at" timestamp with time zone NOT NULL,
	"cpu_time_ns" bigint NOT NULL,
	"disk_read_bytes" bigint NOT NULL,
	"disk_write_bytes" bigint NOT NULL,
	"disk_read_ops" bigint NOT NULL,
	"disk_write_ops" bigint NOT NULL,
	"net_in_bytes" bigint NOT NULL,
	"net_out_bytes" bigint NOT NULL,
	"net_in_packets" bigint NOT NULL,
	"net_out_packets" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vm_metrics_5min" (
	"vm_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"samples" integer NOT NULL,
	"cpu_percent" real NOT NULL,
	"cpu_percent_max" real NOT NULL,
	"memory_samples" integer NOT NULL,
	"memory_bytes" bigint,
	"memory_bytes_max" bigint,
	"disk_read_bytes" bigint NOT NULL,
	"disk_write_bytes" bigint NOT NULL,
	"disk_read_ops" bigint NOT NULL,
	"disk_write_ops" bigint NOT NULL,
	"net_in_bytes" bigint NOT NULL,
	"net_out_bytes" bigint NOT NULL,
	"net_in_packets" bigint NOT NULL,
	"net_out_packets" bigint NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	CONSTRAINT "vm_metrics_5min_pkey" PRIMARY KEY("vm_id","bucket")
) PARTITION BY RANGE ("bucket");
--> statement-breakpoint
CREATE TABLE "vm_metrics_hour" (
	"vm_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"samples" integer NOT NULL,
	"cpu_percent" real NOT NULL,
	"cpu_percent_max" real NOT NULL,
	"memory_samples" integer NOT NULL,
	"memory_bytes" bigint,
	"memory_bytes_max" bigint,
	"disk_read_bytes" bigint NOT NULL,
	"disk_write_bytes" bigint NOT NULL,
	"disk_read_ops" bigint NOT NULL,
	"disk_write_ops" bigint NOT NULL,
	"net_in_bytes" bigint NOT NULL,
	"net_out_bytes" bigint NOT NULL,
	"net_in_packets" bigint NOT NULL,
	"net_out_packets" bigint NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	CONSTRAINT "vm_metrics_hour_pkey" PRIMARY KEY("vm_id","bucket")
) PARTITION BY RANGE ("bucket");
--> statement-breakpoint
CREATE TABLE "vm_metrics_minute" (
	"vm_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"samples" integer NOT NULL,
	"cpu_percent" real NOT NULL,
	"cpu_percent_max" real NOT NULL,
	"memory_samples" integer NOT NULL,
	"memory_bytes" bigint,
	"memory_bytes_max" bigint,
	"disk_read_bytes" bigint NOT NULL,
	"disk_write_bytes" bigint NOT NULL,
	"disk_read_ops" bigint NOT NULL,
	"disk_write_ops" bigint NOT NULL,
	"net_in_bytes" bigint NOT NULL,
	"net_out_bytes" bigint NOT NULL,
	"net_in_packets" bigint NOT NULL,
	"net_out_packets" bigint NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	CONSTRAINT "vm_metrics_minute_pkey" PRIMARY KEY("vm_id","minute")
) PARTITION BY RANGE ("minute");
--> statement-breakpoint
CREATE TABLE "vm_metrics_progress" (
	"name" text PRIMARY KEY NOT NULL,
	"done_until" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vm_traffic_monthly" (
	"vm_id" integer NOT NULL,
	"month" timestamp with time zone NOT NULL,
	"customer_id" integer NOT NULL,
	"in_bytes" bigint NOT NULL,
	"out_bytes" bigint NOT NULL,
	"in_packets" bigint NOT NULL,
	"out_packets" bigint NOT NULL,
	CONSTRAINT "vm_traffic_monthly_pkey" PRIMARY KEY("vm_id","month")
);
--> statement-breakpoint
CREATE INDEX "vm_traffic_monthly_month_idx" ON "vm_traffic_monthly" USING btree ("month","customer_id");
--> statement-breakpoint
-- The partition [lo, hi) of a metrics table, named <table>_p<suffix>, created when missing (true).
-- There is no DEFAULT partition: the writers make the partition of a period before storing it.
CREATE OR REPLACE FUNCTION ensure_metrics_partition(parent regclass, lo timestamptz, hi timestamptz, suffix text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  part text := (SELECT relname FROM pg_class WHERE oid = parent) || '_p' || suffix;
BEGIN
  IF to_regclass(format('%I', part)) IS NOT NULL THEN RETURN false; END IF;
  PERFORM pg_advisory_xact_lock(hashtext(part));
  IF to_regclass(format('%I', part)) IS NOT NULL THEN RETURN false; END IF;
  EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %s FOR VALUES FROM (%L) TO (%L)', part, parent, lo, hi);
  RETURN true;
END;
$$;
