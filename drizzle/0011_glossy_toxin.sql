CREATE TABLE "topup_credit_failures" (
	"invoice_id" uuid PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"permanent" boolean DEFAULT false NOT NULL,
	"error_code" text NOT NULL,
	"last_error" text NOT NULL,
	"first_failed_at" timestamp with time zone NOT NULL,
	"last_failed_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "wallet_drifts" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"actual_balance" numeric(18, 2) NOT NULL,
	"current_balance" numeric(18, 2) NOT NULL,
	"ledger_actual" numeric(18, 2) NOT NULL,
	"ledger_current" numeric(18, 2) NOT NULL,
	"detected_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "topup_invoices" ADD COLUMN "bonus_status" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "topup_invoices" ADD COLUMN "credited_bonus" numeric(18, 2);--> statement-breakpoint
ALTER TABLE "topup_credit_failures" ADD CONSTRAINT "topup_credit_failures_invoice_id_topup_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."topup_invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_drifts" ADD CONSTRAINT "wallet_drifts_customer_id_wallets_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."wallets"("customer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "topup_credit_failures_open_idx" ON "topup_credit_failures" USING btree ("last_failed_at") WHERE "topup_credit_failures"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "topup_invoices_uncredited_idx" ON "topup_invoices" USING btree ("paid_at") WHERE "topup_invoices"."status" = 'Paid' and "topup_invoices"."credited_at" is null;--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_used_nonnegative" CHECK ("coupons"."used_count" >= 0);--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_amounts_bound" CHECK ("coupons"."value" <= 1000000000 and coalesce("coupons"."max_bonus", 0) <= 1000000000 and "coupons"."min_deposit" <= 1000000000);--> statement-breakpoint
ALTER TABLE "topup_invoices" ADD CONSTRAINT "topup_invoices_bonus_status" CHECK ("topup_invoices"."bonus_status" in ('none','reserved','released','credited','forfeited'));