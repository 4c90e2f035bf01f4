ALTER TABLE "account_settings" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_settings" ADD COLUMN "closed_by" integer;