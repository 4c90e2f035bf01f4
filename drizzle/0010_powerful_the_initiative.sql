CREATE TABLE "redeem_code_redemptions" (
	"code_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"balance_log_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "redeem_code_redemptions_code_id_customer_id_pk" PRIMARY KEY("code_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "redeem_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "redeem_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"usage_limit" integer,
	"used_count" integer DEFAULT 0 NOT NULL,
	"valid_from" timestamp with time zone,
	"valid_until" timestamp with time zone,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "redeem_codes_amount_positive" CHECK ("redeem_codes"."amount" > 0),
	CONSTRAINT "redeem_codes_usage" CHECK ("redeem_codes"."usage_limit" is null or "redeem_codes"."used_count" <= "redeem_codes"."usage_limit")
);
--> statement-breakpoint
CREATE TABLE "referral_codes" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referrals" (
	"referred_customer_id" integer PRIMARY KEY NOT NULL,
	"referrer_customer_id" integer NOT NULL,
	"bonus_amount" numeric(18, 2),
	"rewarded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referrals_not_self" CHECK ("referrals"."referred_customer_id" <> "referrals"."referrer_customer_id")
);
--> statement-breakpoint
CREATE TABLE "reward_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"first_top_up_percent" numeric(5, 2) DEFAULT '0' NOT NULL,
	"first_top_up_max_bonus" numeric(18, 2),
	"referral_percent" numeric(5, 2) DEFAULT '0' NOT NULL,
	"referral_max_bonus" numeric(18, 2),
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reward_settings_singleton" CHECK ("reward_settings"."id" = 1),
	CONSTRAINT "reward_settings_percent_range" CHECK ("reward_settings"."first_top_up_percent" between 0 and 100 and "reward_settings"."referral_percent" between 0 and 100)
);
--> statement-breakpoint
ALTER TABLE "redeem_code_redemptions" ADD CONSTRAINT "redeem_code_redemptions_code_id_redeem_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."redeem_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_code_redemptions" ADD CONSTRAINT "redeem_code_redemptions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_codes" ADD CONSTRAINT "referral_codes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_referred_customer_id_customers_id_fk" FOREIGN KEY ("referred_customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_referrer_customer_id_customers_id_fk" FOREIGN KEY ("referrer_customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "redeem_code_redemptions_customer_idx" ON "redeem_code_redemptions" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "redeem_codes_code_unique" ON "redeem_codes" USING btree (lower("code")) WHERE "redeem_codes"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "referral_codes_code_unique" ON "referral_codes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "referrals_referrer_idx" ON "referrals" USING btree ("referrer_customer_id");