CREATE TABLE "idempotency_keys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "idempotency_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"scope" text NOT NULL,
	"owner" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" text DEFAULT 'in_progress' NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "billing_account_settings" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"minimum_topup" numeric(18, 2),
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coupon_redemptions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "coupon_redemptions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"coupon_id" integer NOT NULL,
	"invoice_id" uuid NOT NULL,
	"customer_id" integer NOT NULL,
	"bonus_amount" numeric(18, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coupons" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "coupons_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"value" numeric(18, 2) NOT NULL,
	"max_bonus" numeric(18, 2),
	"min_deposit" numeric(18, 2) DEFAULT '0' NOT NULL,
	"valid_from" timestamp with time zone,
	"valid_until" timestamp with time zone,
	"usage_limit" integer,
	"used_count" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "coupons_type" CHECK ("coupons"."type" in ('PERCENT','FIXED')),
	CONSTRAINT "coupons_value_positive" CHECK ("coupons"."value" > 0),
	CONSTRAINT "coupons_percent_range" CHECK ("coupons"."type" <> 'PERCENT' or "coupons"."value" <= 100),
	CONSTRAINT "coupons_usage" CHECK ("coupons"."usage_limit" is null or "coupons"."used_count" <= "coupons"."usage_limit")
);
--> statement-breakpoint
CREATE TABLE "payment_callbacks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_callbacks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"gateway_name" text NOT NULL,
	"claimed_invoice_id" text,
	"raw_body" text NOT NULL,
	"headers" jsonb NOT NULL,
	"remote_ip" text,
	"signature_valid" boolean DEFAULT false NOT NULL,
	"outcome" text NOT NULL,
	"response_status" integer NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_methods_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"gateway_name" text NOT NULL,
	"method_code" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"fee_flat" numeric(18, 2) DEFAULT '0' NOT NULL,
	"fee_percent" numeric(5, 2) DEFAULT '0' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "payment_methods_type" CHECK ("payment_methods"."type" in ('VIRTUAL_ACCOUNT','QRIS','EWALLET','CARD'))
);
--> statement-breakpoint
CREATE TABLE "topup_invoices" (
	"id" uuid PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"gateway_name" text NOT NULL,
	"method_code" text NOT NULL,
	"method_name" text NOT NULL,
	"method_type" text NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"fee" numeric(18, 2) NOT NULL,
	"total_amount" numeric(18, 2) NOT NULL,
	"currency" text NOT NULL,
	"coupon_id" integer,
	"coupon_code" text,
	"bonus_amount" numeric(18, 2) DEFAULT '0' NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL,
	"payment_url" text,
	"redirect_url" text,
	"va_number" text,
	"qr_string" text,
	"gateway_reference" text,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"credited_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"expired_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "topup_invoices_status" CHECK ("topup_invoices"."status" in ('Pending','Paid','Failed','Expired')),
	CONSTRAINT "topup_invoices_amounts" CHECK ("topup_invoices"."amount" > 0 and "topup_invoices"."fee" >= 0 and "topup_invoices"."total_amount" = "topup_invoices"."amount" + "topup_invoices"."fee")
);
--> statement-breakpoint
CREATE TABLE "balance_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "balance_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"type" text NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"actual_amount" numeric(18, 2) NOT NULL,
	"bonus_amount" numeric(18, 2) NOT NULL,
	"actual_balance_after" numeric(18, 2) NOT NULL,
	"current_balance_after" numeric(18, 2) NOT NULL,
	"reference_type" text NOT NULL,
	"reference_id" text NOT NULL,
	"description" text NOT NULL,
	"created_by_admin_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "balance_logs_parts_sum" CHECK ("balance_logs"."amount" = "balance_logs"."actual_amount" + "balance_logs"."bonus_amount"),
	CONSTRAINT "balance_logs_nonzero" CHECK ("balance_logs"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"actual_balance" numeric(18, 2) DEFAULT '0' NOT NULL,
	"current_balance" numeric(18, 2) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_account_settings" ADD CONSTRAINT "billing_account_settings_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_invoice_id_topup_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."topup_invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topup_invoices" ADD CONSTRAINT "topup_invoices_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topup_invoices" ADD CONSTRAINT "topup_invoices_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_logs" ADD CONSTRAINT "balance_logs_customer_id_wallets_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."wallets"("customer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_keys_unique" ON "idempotency_keys" USING btree ("scope","owner","key");--> statement-breakpoint
CREATE UNIQUE INDEX "coupon_redemptions_invoice_unique" ON "coupon_redemptions" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "coupon_redemptions_coupon_idx" ON "coupon_redemptions" USING btree ("coupon_id");--> statement-breakpoint
CREATE UNIQUE INDEX "coupons_code_unique" ON "coupons" USING btree (lower("code")) WHERE "coupons"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "payment_callbacks_invoice_idx" ON "payment_callbacks" USING btree ("claimed_invoice_id");--> statement-breakpoint
CREATE INDEX "payment_callbacks_received_idx" ON "payment_callbacks" USING btree ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_gateway_code_unique" ON "payment_methods" USING btree ("gateway_name","method_code");--> statement-breakpoint
CREATE INDEX "topup_invoices_customer_idx" ON "topup_invoices" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "topup_invoices_status_created_idx" ON "topup_invoices" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "topup_invoices_pending_expiry_idx" ON "topup_invoices" USING btree ("expires_at") WHERE "topup_invoices"."status" = 'Pending';--> statement-breakpoint
CREATE UNIQUE INDEX "balance_logs_reference_unique" ON "balance_logs" USING btree ("type","reference_type","reference_id");--> statement-breakpoint
CREATE INDEX "balance_logs_customer_idx" ON "balance_logs" USING btree ("customer_id","id");