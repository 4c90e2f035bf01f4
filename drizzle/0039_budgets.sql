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
ALTER TABLE "budget_alerts" ADD CONSTRAINT "budget_alerts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind" CHECK (kind in ('INVOICE_CREATED','LOW_BALANCE','SUSPENDED','TICKET_REPLY','ANNOUNCEMENT','TOPUP_CREDITED','INVOICE_PAID','INVOICE_DUE_SOON','INVOICE_OVERDUE','RESUMED','RUNWAY_WARNING','WEBHOOK_DISABLED','VM_STAFF_ACTION','BUDGET_THRESHOLD','RUNWAY_ALERT','ALERT_FIRED','ALERT_RESOLVED'));