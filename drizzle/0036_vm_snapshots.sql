CREATE TABLE "vm_snapshot_restores" (
	"vm_id" integer PRIMARY KEY NOT NULL,
	"snapshot_id" integer NOT NULL,
	"start" boolean NOT NULL,
	"admin_id" integer,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vm_snapshots" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "vm_snapshots_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"vm_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'Creating' NOT NULL,
	"include_volume" boolean DEFAULT false NOT NULL,
	"os" text NOT NULL,
	"disk_gb" integer NOT NULL,
	"volume_gb" integer,
	"consistency" text,
	"size_bytes" bigint,
	"size_gb" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "vm_snapshots_status" CHECK ("vm_snapshots"."status" in ('Creating', 'Available', 'Failed', 'Deleting', 'Deleted')),
	CONSTRAINT "vm_snapshots_consistency" CHECK ("vm_snapshots"."consistency" is null or "vm_snapshots"."consistency" in ('application', 'crash'))
);
--> statement-breakpoint
ALTER TABLE "vms" DROP CONSTRAINT "vms_task";--> statement-breakpoint
ALTER TABLE "vms" ADD COLUMN "source_snapshot_id" integer;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "snapshot_limit" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "vm_snapshot_restores" ADD CONSTRAINT "vm_snapshot_restores_vm_id_vms_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."vms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_snapshot_restores" ADD CONSTRAINT "vm_snapshot_restores_snapshot_id_vm_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."vm_snapshots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_snapshot_restores" ADD CONSTRAINT "vm_snapshot_restores_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_snapshots" ADD CONSTRAINT "vm_snapshots_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_snapshots" ADD CONSTRAINT "vm_snapshots_vm_id_vms_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."vms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_snapshots" ADD CONSTRAINT "vm_snapshots_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vm_snapshots_customer_idx" ON "vm_snapshots" USING btree ("customer_id","status");--> statement-breakpoint
CREATE INDEX "vm_snapshots_vm_idx" ON "vm_snapshots" USING btree ("vm_id","status");--> statement-breakpoint
ALTER TABLE "vms" ADD CONSTRAINT "vms_task" CHECK ("vms"."task" is null or "vms"."task" in ('create', 'start', 'stop', 'delete', 'suspend', 'resume', 'resize', 'reboot', 'reset', 'rebuild', 'rescue', 'unrescue', 'snapshot', 'restore'));