CREATE TABLE "account_lockouts" (
	"scope" text NOT NULL,
	"subject" text NOT NULL,
	"failed_count" integer NOT NULL,
	"window_started_at" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "account_lockouts_scope_subject_pk" PRIMARY KEY("scope","subject")
);
--> statement-breakpoint
ALTER TABLE "customer_sessions" ADD COLUMN "impersonator_role_id" integer;--> statement-breakpoint
CREATE INDEX "account_lockouts_updated_idx" ON "account_lockouts" USING btree ("updated_at");--> statement-breakpoint
ALTER TABLE "admins" DROP COLUMN "failed_logins";--> statement-breakpoint
ALTER TABLE "admins" DROP COLUMN "first_failed_at";--> statement-breakpoint
ALTER TABLE "admins" DROP COLUMN "locked_until";--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "failed_login_count";--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "failed_login_window_started_at";--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "login_locked_until";