CREATE TABLE "backup_policy" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"price_share_percent" numeric(5, 2) DEFAULT '20' NOT NULL,
	"keep_last" integer DEFAULT 7 NOT NULL,
	"sweep_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "backup_policy_singleton" CHECK ("backup_policy"."id" = 1),
	CONSTRAINT "backup_policy_share" CHECK ("backup_policy"."price_share_percent" > 0 and "backup_policy"."price_share_percent" <= 100),
	CONSTRAINT "backup_policy_keep" CHECK ("backup_policy"."keep_last" between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "backup_restores" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"backup_id" uuid NOT NULL,
	"customer_id" integer NOT NULL,
	"vm_id" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"admin_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "backup_restores_status" CHECK ("backup_restores"."status" in ('waiting', 'pending', 'running', 'completed', 'failed')),
	CONSTRAINT "backup_restores_kind" CHECK ("backup_restores"."kind" in ('same', 'new'))
);
--> statement-breakpoint
CREATE TABLE "vm_backup_plans" (
	"vm_id" integer PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"frequency" text DEFAULT 'daily' NOT NULL,
	"hour" integer DEFAULT 2 NOT NULL,
	"weekday" integer,
	"enabled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vm_backup_plans_frequency" CHECK ("vm_backup_plans"."frequency" in ('daily', 'weekly')),
	CONSTRAINT "vm_backup_plans_hour" CHECK ("vm_backup_plans"."hour" between 0 and 23),
	CONSTRAINT "vm_backup_plans_weekday" CHECK (("vm_backup_plans"."frequency" = 'daily' and "vm_backup_plans"."weekday" is null) or ("vm_backup_plans"."frequency" = 'weekly' and "vm_backup_plans"."weekday" between 0 and 6))
);
--> statement-breakpoint
CREATE TABLE "vm_backups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"vm_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	"vm_name" text NOT NULL,
	"trigger" text NOT NULL,
	"slot" timestamp with time zone,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"disk_bytes" bigint,
	"stored_bytes" bigint,
	"sent_bytes" bigint,
	"chunks" integer,
	"duration_ms" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	CONSTRAINT "vm_backups_status" CHECK ("vm_backups"."status" in ('pending', 'running', 'completed', 'failed', 'deleted')),
	CONSTRAINT "vm_backups_trigger" CHECK ("vm_backups"."trigger" in ('scheduled', 'manual'))
);
--> statement-breakpoint
ALTER TABLE "vms" DROP CONSTRAINT "vms_task";--> statement-breakpoint
ALTER TABLE "backup_restores" ADD CONSTRAINT "backup_restores_backup_id_vm_backups_id_fk" FOREIGN KEY ("backup_id") REFERENCES "public"."vm_backups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_restores" ADD CONSTRAINT "backup_restores_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_restores" ADD CONSTRAINT "backup_restores_vm_id_vms_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."vms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_restores" ADD CONSTRAINT "backup_restores_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_backup_plans" ADD CONSTRAINT "vm_backup_plans_vm_id_vms_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."vms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_backup_plans" ADD CONSTRAINT "vm_backup_plans_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_backups" ADD CONSTRAINT "vm_backups_vm_id_vms_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."vms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_backups" ADD CONSTRAINT "vm_backups_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_backups" ADD CONSTRAINT "vm_backups_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "backup_restores_vm_idx" ON "backup_restores" USING btree ("vm_id","created_at");--> statement-breakpoint
CREATE INDEX "backup_restores_due_idx" ON "backup_restores" USING btree ("next_attempt_at") WHERE "backup_restores"."status" in ('waiting', 'pending', 'running');--> statement-breakpoint
CREATE INDEX "vm_backup_plans_enabled_idx" ON "vm_backup_plans" USING btree ("enabled");--> statement-breakpoint
CREATE UNIQUE INDEX "vm_backups_slot_unique" ON "vm_backups" USING btree ("vm_id","slot") WHERE "vm_backups"."slot" is not null;--> statement-breakpoint
CREATE INDEX "vm_backups_vm_idx" ON "vm_backups" USING btree ("vm_id","created_at");--> statement-breakpoint
CREATE INDEX "vm_backups_customer_idx" ON "vm_backups" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "vm_backups_due_idx" ON "vm_backups" USING btree ("next_attempt_at") WHERE "vm_backups"."status" in ('pending', 'running');--> statement-breakpoint
ALTER TABLE "vms" ADD CONSTRAINT "vms_task" CHECK ("vms"."task" is null or "vms"."task" in ('create', 'start', 'stop', 'delete', 'suspend', 'resume', 'resize', 'reboot', 'reset', 'rebuild', 'rescue', 'unrescue', 'snapshot', 'restore', 'restore_backup'));--> statement-breakpoint
INSERT INTO "backup_policy" ("id") VALUES (1) ON CONFLICT DO NOTHING;
