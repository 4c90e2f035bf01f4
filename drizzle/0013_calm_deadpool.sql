CREATE TABLE "load_balancer_targets" (
	"load_balancer_id" integer NOT NULL,
	"vm_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "load_balancer_targets_load_balancer_id_vm_id_pk" PRIMARY KEY("load_balancer_id","vm_id")
);
--> statement-breakpoint
CREATE TABLE "load_balancers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "load_balancers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	"name" text NOT NULL,
	"algorithm" text NOT NULL,
	"forwarding_rules" jsonb NOT NULL,
	"health_check" jsonb,
	"status" text DEFAULT 'Creating' NOT NULL,
	"address" text,
	"external_id" text,
	"last_error" text,
	"price_key" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"synced_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "load_balancers_status" CHECK ("load_balancers"."status" in ('Creating', 'Active', 'Error', 'Deleting', 'Deleted')),
	CONSTRAINT "load_balancers_algorithm" CHECK ("load_balancers"."algorithm" in ('round_robin', 'least_connections'))
);
--> statement-breakpoint
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
CREATE TABLE "security_group_attachments" (
	"group_id" integer NOT NULL,
	"vm_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "security_group_attachments_group_id_vm_id_pk" PRIMARY KEY("group_id","vm_id")
);
--> statement-breakpoint
CREATE TABLE "security_group_rules" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "security_group_rules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"group_id" integer NOT NULL,
	"direction" text NOT NULL,
	"rule_type_id" integer NOT NULL,
	"protocol" text NOT NULL,
	"port_from" integer,
	"port_to" integer,
	"remote_cidr" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "security_group_rules_direction" CHECK ("security_group_rules"."direction" in ('ingress', 'egress')),
	CONSTRAINT "security_group_rules_ports" CHECK (("security_group_rules"."port_from" is null and "security_group_rules"."port_to" is null) or ("security_group_rules"."port_from" between 1 and 65535 and "security_group_rules"."port_to" between "security_group_rules"."port_from" and 65535))
);
--> statement-breakpoint
CREATE TABLE "security_groups" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "security_groups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"synced_version" integer DEFAULT 0 NOT NULL,
	"synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "load_balancer_targets" ADD CONSTRAINT "load_balancer_targets_load_balancer_id_load_balancers_id_fk" FOREIGN KEY ("load_balancer_id") REFERENCES "public"."load_balancers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "load_balancer_targets" ADD CONSTRAINT "load_balancer_targets_vm_id_vms_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."vms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "load_balancers" ADD CONSTRAINT "load_balancers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "load_balancers" ADD CONSTRAINT "load_balancers_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_code_redemptions" ADD CONSTRAINT "redeem_code_redemptions_code_id_redeem_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."redeem_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redeem_code_redemptions" ADD CONSTRAINT "redeem_code_redemptions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_codes" ADD CONSTRAINT "referral_codes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_referred_customer_id_customers_id_fk" FOREIGN KEY ("referred_customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_referrer_customer_id_customers_id_fk" FOREIGN KEY ("referrer_customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_group_attachments" ADD CONSTRAINT "security_group_attachments_group_id_security_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."security_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_group_attachments" ADD CONSTRAINT "security_group_attachments_vm_id_vms_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."vms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_group_rules" ADD CONSTRAINT "security_group_rules_group_id_security_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."security_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_group_rules" ADD CONSTRAINT "security_group_rules_rule_type_fk" FOREIGN KEY ("rule_type_id") REFERENCES "public"."firewall_rule_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_groups" ADD CONSTRAINT "security_groups_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_groups" ADD CONSTRAINT "security_groups_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "load_balancer_targets_vm_idx" ON "load_balancer_targets" USING btree ("vm_id");--> statement-breakpoint
CREATE UNIQUE INDEX "load_balancers_uuid_unique" ON "load_balancers" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "load_balancers_customer_idx" ON "load_balancers" USING btree ("customer_id","status");--> statement-breakpoint
CREATE INDEX "redeem_code_redemptions_customer_idx" ON "redeem_code_redemptions" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "redeem_codes_code_unique" ON "redeem_codes" USING btree (lower("code")) WHERE "redeem_codes"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "referral_codes_code_unique" ON "referral_codes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "referrals_referrer_idx" ON "referrals" USING btree ("referrer_customer_id");--> statement-breakpoint
CREATE INDEX "security_group_attachments_vm_idx" ON "security_group_attachments" USING btree ("vm_id");--> statement-breakpoint
CREATE INDEX "security_group_rules_group_idx" ON "security_group_rules" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "security_group_rules_type_idx" ON "security_group_rules" USING btree ("rule_type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "security_groups_uuid_unique" ON "security_groups" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "security_groups_name_unique" ON "security_groups" USING btree ("customer_id",lower("name")) WHERE "security_groups"."deleted_at" is null;