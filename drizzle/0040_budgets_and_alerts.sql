CREATE TABLE "alert_policies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_policies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"name" text NOT NULL,
	"vm_id" integer,
	"metric" text NOT NULL,
	"comparison" text NOT NULL,
	"threshold" numeric(24, 4) NOT NULL,
	"aggregation" text NOT NULL,
	"window_minutes" integer NOT NULL,
	"notify_email" boolean DEFAULT true NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"evaluated_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_policies_comparison" CHECK ("alert_policies"."comparison" in ('>', '<')),
	CONSTRAINT "alert_policies_aggregation" CHECK ("alert_policies"."aggregation" in ('avg', 'min', 'max', 'sum')),
	CONSTRAINT "alert_policies_window" CHECK ("alert_policies"."window_minutes" between 1 and 1440)
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alerts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"policy_id" integer,
	"vm_id" integer NOT NULL,
	"policy_name" text NOT NULL,
	"metric" text NOT NULL,
	"comparison" text NOT NULL,
	"threshold" numeric(24, 4) NOT NULL,
	"aggregation" text NOT NULL,
	"window_minutes" integer NOT NULL,
	"fired_value" numeric(30, 4) NOT NULL,
	"resolved_value" numeric(30, 4),
	"started_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolution" text
);
--> statement-breakpoint
CREATE TABLE "budget_alerts" (
	"customer_id" integer NOT NULL,
	"month" date NOT NULL,
	"threshold" integer NOT NULL,
	"budget" numeric(18, 2) NOT NULL,
	"spent" numeric(24, 2) NOT NULL,
	"crossed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "budget_alerts_pkey" PRIMARY KEY("customer_id","month","threshold")
);
--> statement-breakpoint
CREATE TABLE "budgets" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"monthly_amount" numeric(18, 2),
	"thresholds" integer[] NOT NULL,
	"runway_alert_days" integer,
	"runway_alert_since" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "budgets_amount_positive" CHECK ("budgets"."monthly_amount" is null or "budgets"."monthly_amount" > 0),
	CONSTRAINT "budgets_runway_days" CHECK ("budgets"."runway_alert_days" is null or "budgets"."runway_alert_days" between 1 and 365)
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind";--> statement-breakpoint
ALTER TABLE "alert_policies" ADD CONSTRAINT "alert_policies_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_policies" ADD CONSTRAINT "alert_policies_vm_id_vms_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."vms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_policy_id_alert_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."alert_policies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_vm_id_vms_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."vms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_alerts" ADD CONSTRAINT "budget_alerts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_policies_customer_idx" ON "alert_policies" USING btree ("customer_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_unique" ON "alerts" USING btree ("policy_id","vm_id") WHERE "alerts"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "alerts_customer_idx" ON "alerts" USING btree ("customer_id","id");--> statement-breakpoint
CREATE INDEX "alerts_vm_open_idx" ON "alerts" USING btree ("vm_id") WHERE "alerts"."resolved_at" is null;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind" CHECK (kind in ('INVOICE_CREATED','LOW_BALANCE','SUSPENDED','TICKET_REPLY','ANNOUNCEMENT','TOPUP_CREDITED','INVOICE_PAID','INVOICE_DUE_SOON','INVOICE_OVERDUE','RESUMED','RUNWAY_WARNING','WEBHOOK_DISABLED','VM_STAFF_ACTION','BUDGET_THRESHOLD','RUNWAY_ALERT','ALERT_FIRED','ALERT_RESOLVED'));