ALTER TABLE "vms" DROP CONSTRAINT "vms_task";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind";--> statement-breakpoint
ALTER TABLE "vms" ADD COLUMN "rescue" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "vms" ADD COLUMN "rebuilds" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "vms" ADD CONSTRAINT "vms_task" CHECK ("vms"."task" is null or "vms"."task" in ('create', 'start', 'stop', 'delete', 'suspend', 'resume', 'resize', 'reboot', 'reset', 'rebuild', 'rescue', 'unrescue'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind" CHECK (kind in ('INVOICE_CREATED','LOW_BALANCE','SUSPENDED','TICKET_REPLY','ANNOUNCEMENT','TOPUP_CREDITED','INVOICE_PAID','INVOICE_DUE_SOON','INVOICE_OVERDUE','RESUMED','RUNWAY_WARNING','WEBHOOK_DISABLED','VM_STAFF_ACTION'));