CREATE TABLE "customers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "customers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"account_type" text DEFAULT 'P' NOT NULL,
	"billing_type" text DEFAULT 'PREPAID' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_registration_completed" boolean DEFAULT false NOT NULL,
	"is_identity_verified" boolean DEFAULT false NOT NULL,
	"email_verified_at" timestamp with time zone,
	"suspended_at" timestamp with time zone,
	"suspend_reason" text,
	"do_not_suspend_until" timestamp with time zone,
	"reward_first_top_up" boolean DEFAULT false NOT NULL,
	"reward_referral" boolean DEFAULT false NOT NULL,
	"block_storage_limit" integer DEFAULT 5 NOT NULL,
	"loadbalancer_limit" integer DEFAULT 2 NOT NULL,
	"object_storage_limit" integer DEFAULT 5 NOT NULL,
	"private_ip_limit" integer DEFAULT 20 NOT NULL,
	"public_ip_limit" integer DEFAULT 5 NOT NULL,
	"vm_limit" integer DEFAULT 10 NOT NULL,
	"max_session" integer DEFAULT 5 NOT NULL,
	"personal_profile" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"business_profile" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"allow_marketing_email" boolean DEFAULT false NOT NULL,
	"allow_billing_reminder" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "customers_email_unique" ON "customers" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "customers_created_idx" ON "customers" USING btree ("created_at");