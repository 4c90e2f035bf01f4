ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind";--> statement-breakpoint
DROP INDEX "audit_logs_actor_idx";--> statement-breakpoint
CREATE INDEX "audit_logs_actor_idx" ON "audit_logs" USING btree ("actor_type","actor_id","id");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind" CHECK (kind in ('INVOICE_CREATED','LOW_BALANCE','SUSPENDED','TICKET_REPLY','ANNOUNCEMENT','TOPUP_CREDITED','INVOICE_PAID','INVOICE_DUE_SOON','INVOICE_OVERDUE','RESUMED','RUNWAY_WARNING'));