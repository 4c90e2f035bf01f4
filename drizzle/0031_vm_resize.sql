ALTER TABLE "vms" DROP CONSTRAINT "vms_task";--> statement-breakpoint
ALTER TABLE "vms" ADD COLUMN "resize_tier_id" integer;--> statement-breakpoint
ALTER TABLE "vms" ADD COLUMN "resize_from_status" text;--> statement-breakpoint
ALTER TABLE "vms" ADD CONSTRAINT "vms_resize_tier_id_tiers_id_fk" FOREIGN KEY ("resize_tier_id") REFERENCES "public"."tiers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vms" ADD CONSTRAINT "vms_task" CHECK ("vms"."task" is null or "vms"."task" in ('create', 'start', 'stop', 'delete', 'suspend', 'resume', 'resize'));