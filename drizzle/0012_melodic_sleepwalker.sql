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
ALTER TABLE "load_balancer_targets" ADD CONSTRAINT "load_balancer_targets_load_balancer_id_load_balancers_id_fk" FOREIGN KEY ("load_balancer_id") REFERENCES "public"."load_balancers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "load_balancer_targets" ADD CONSTRAINT "load_balancer_targets_vm_id_vms_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."vms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "load_balancers" ADD CONSTRAINT "load_balancers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "load_balancers" ADD CONSTRAINT "load_balancers_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "load_balancer_targets_vm_idx" ON "load_balancer_targets" USING btree ("vm_id");--> statement-breakpoint
CREATE UNIQUE INDEX "load_balancers_uuid_unique" ON "load_balancers" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "load_balancers_customer_idx" ON "load_balancers" USING btree ("customer_id","status");