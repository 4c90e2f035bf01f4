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
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "sensitive" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "scrubbed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "mail_outbox_created_idx" ON "mail_outbox" USING btree ("created_at");
--> statement-breakpoint
DROP TABLE "admin_refresh_tokens" CASCADE;--> statement-breakpoint
DROP TABLE "customer_refresh_token_history" CASCADE;--> statement-breakpoint
DROP INDEX "customer_sessions_refresh_unique";--> statement-breakpoint
ALTER TABLE "customer_sessions" DROP COLUMN "refresh_token_hash";
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"realm" text NOT NULL,
	"session_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "refresh_tokens_session_idx" ON "refresh_tokens" USING btree ("realm","session_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_expires_idx" ON "refresh_tokens" USING btree ("expires_at");
--> statement-breakpoint
CREATE TABLE "admin_recovery_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "admin_recovery_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"admin_id" integer NOT NULL,
	"salt" text NOT NULL,
	"code_hash" text NOT NULL,
	"hint" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "totp_secret_enc" text;--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "totp_pending_secret_enc" text;--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "last_totp_step" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "admins" ADD COLUMN "two_factor_enabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "app_settings" ADD COLUMN "staff_two_factor_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "admin_recovery_codes" ADD CONSTRAINT "admin_recovery_codes_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_recovery_codes_admin_idx" ON "admin_recovery_codes" USING btree ("admin_id");
