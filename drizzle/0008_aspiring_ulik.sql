CREATE TABLE "block_storage_machines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "block_storage_machines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"location_id" integer NOT NULL,
	"name" text NOT NULL,
	"hypervisor_ip" text NOT NULL,
	"capacity_gb" integer NOT NULL,
	"used_gb" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "block_storage_machines_room" CHECK ("block_storage_machines"."used_gb" >= 0 AND "block_storage_machines"."used_gb" <= "block_storage_machines"."capacity_gb")
);
--> statement-breakpoint
CREATE TABLE "storage_tiers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "storage_tiers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vms" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "vms_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"name" text NOT NULL,
	"location_id" integer NOT NULL,
	"tier_id" integer NOT NULL,
	"os" text NOT NULL,
	"cpu" integer NOT NULL,
	"memory_mb" integer NOT NULL,
	"disk_gb" integer NOT NULL,
	"status" text DEFAULT 'Creating' NOT NULL,
	"task" text,
	"failed_task" text,
	"last_error" text,
	"suspended_from" text,
	"suspend_reason" text,
	"suspended_at" timestamp with time zone,
	"public_ip" text,
	"block_storage_tier_id" integer,
	"block_storage_gb" integer,
	"block_storage_machine_id" integer,
	"external_id" text,
	"hypervisor" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "vms_status" CHECK ("vms"."status" in ('Creating', 'Running', 'Stopped', 'Suspended', 'Error', 'Deleting', 'Deleted')),
	CONSTRAINT "vms_task" CHECK ("vms"."task" is null or "vms"."task" in ('create', 'start', 'stop', 'delete', 'suspend', 'resume'))
);
--> statement-breakpoint
CREATE TABLE "components" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "components_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"unit" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "components_type" CHECK ("components"."type" in ('compute', 'storage', 'network'))
);
--> statement-breakpoint
CREATE TABLE "price_schedules" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "price_schedules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"price_key" text NOT NULL,
	"location_id" integer NOT NULL,
	"component_id" integer,
	"tier_id" integer,
	"storage_tier_id" integer,
	"monthly_price" numeric(18, 2) NOT NULL,
	"hourly_price" numeric(18, 6) NOT NULL,
	"effective_date" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" integer,
	"price_version_id" integer,
	CONSTRAINT "price_schedules_status" CHECK ("price_schedules"."status" in ('waiting', 'applied', 'cancelled')),
	CONSTRAINT "price_schedules_non_negative" CHECK ("price_schedules"."monthly_price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "tier_types" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tier_types_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tiers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tiers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"tier_type_id" integer NOT NULL,
	"cpu" integer NOT NULL,
	"memory_mb" integer NOT NULL,
	"disk_gb" integer NOT NULL,
	"cpu_limit" integer NOT NULL,
	"location_id" integer,
	"is_visible" boolean DEFAULT true NOT NULL,
	"loadbalance_enabled" boolean DEFAULT false NOT NULL,
	"loadbalance_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tiers_sizes" CHECK ("tiers"."cpu" > 0 AND "tiers"."memory_mb" > 0 AND "tiers"."disk_gb" > 0 AND "tiers"."cpu_limit" between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "block_storage_machines" ADD CONSTRAINT "block_storage_machines_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vms" ADD CONSTRAINT "vms_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vms" ADD CONSTRAINT "vms_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vms" ADD CONSTRAINT "vms_tier_id_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."tiers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vms" ADD CONSTRAINT "vms_block_storage_tier_id_storage_tiers_id_fk" FOREIGN KEY ("block_storage_tier_id") REFERENCES "public"."storage_tiers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vms" ADD CONSTRAINT "vms_block_storage_machine_id_block_storage_machines_id_fk" FOREIGN KEY ("block_storage_machine_id") REFERENCES "public"."block_storage_machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_schedules" ADD CONSTRAINT "price_schedules_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tiers" ADD CONSTRAINT "tiers_tier_type_id_tier_types_id_fk" FOREIGN KEY ("tier_type_id") REFERENCES "public"."tier_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tiers" ADD CONSTRAINT "tiers_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "block_storage_machines_location_idx" ON "block_storage_machines" USING btree ("location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "block_storage_machines_name_unique" ON "block_storage_machines" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "storage_tiers_name_unique" ON "storage_tiers" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "vms_customer_idx" ON "vms" USING btree ("customer_id","status");--> statement-breakpoint
CREATE INDEX "vms_location_tier_idx" ON "vms" USING btree ("location_id","tier_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "vms_public_ip_unique" ON "vms" USING btree ("location_id","public_ip") WHERE "vms"."public_ip" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "components_code_unique" ON "components" USING btree ("code");--> statement-breakpoint
CREATE INDEX "price_schedules_due_idx" ON "price_schedules" USING btree ("status","effective_date");--> statement-breakpoint
CREATE UNIQUE INDEX "price_schedules_one_per_instant" ON "price_schedules" USING btree ("price_key","location_id","effective_date") WHERE "price_schedules"."status" <> 'cancelled';--> statement-breakpoint
CREATE UNIQUE INDEX "tier_types_name_unique" ON "tier_types" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "tiers_type_idx" ON "tiers" USING btree ("tier_type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tiers_name_unique" ON "tiers" USING btree (lower("name")) WHERE "tiers"."deleted_at" is null;