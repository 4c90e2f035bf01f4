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
ALTER TABLE "alert_policies" ADD CONSTRAINT "alert_policies_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_policies" ADD CONSTRAINT "alert_policies_vm_id_vms_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."vms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_policy_id_alert_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."alert_policies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_vm_id_vms_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."vms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_policies_customer_idx" ON "alert_policies" USING btree ("customer_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_unique" ON "alerts" USING btree ("policy_id","vm_id") WHERE "alerts"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "alerts_customer_idx" ON "alerts" USING btree ("customer_id","id");--> statement-breakpoint
CREATE INDEX "alerts_vm_open_idx" ON "alerts" USING btree ("vm_id") WHERE "alerts"."resolved_at" is null;