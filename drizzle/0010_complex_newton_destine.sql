CREATE TABLE "private_ips" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "private_ips_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"network_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"ip" text NOT NULL,
	"ip_description" text DEFAULT '' NOT NULL,
	"instance_id" integer NOT NULL,
	"instance_type" text DEFAULT 'VM' NOT NULL,
	"pos_x" integer DEFAULT 0 NOT NULL,
	"pos_y" integer DEFAULT 0 NOT NULL,
	"is_registered" boolean DEFAULT false NOT NULL,
	"task" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "private_ips_task" CHECK ("private_ips"."task" is null or "private_ips"."task" in ('attach', 'detach')),
	CONSTRAINT "private_ips_instance_type" CHECK ("private_ips"."instance_type" in ('VM'))
);
--> statement-breakpoint
CREATE TABLE "private_networks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "private_networks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" integer NOT NULL,
	"name" text NOT NULL,
	"location_id" integer NOT NULL,
	"network_ip" text NOT NULL,
	"cidr" integer NOT NULL,
	"status" text DEFAULT 'Creating' NOT NULL,
	"task" text,
	"last_error" text,
	"external_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "private_networks_status" CHECK ("private_networks"."status" in ('Creating', 'Active', 'Deleted')),
	CONSTRAINT "private_networks_task" CHECK ("private_networks"."task" is null or "private_networks"."task" in ('create', 'delete')),
	CONSTRAINT "private_networks_cidr" CHECK ("private_networks"."cidr" between 16 and 30)
);
--> statement-breakpoint
ALTER TABLE "private_ips" ADD CONSTRAINT "private_ips_network_id_private_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."private_networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_ips" ADD CONSTRAINT "private_ips_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_networks" ADD CONSTRAINT "private_networks_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "private_networks" ADD CONSTRAINT "private_networks_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "private_ips_network_ip_unique" ON "private_ips" USING btree ("network_id","ip");--> statement-breakpoint
CREATE UNIQUE INDEX "private_ips_network_instance_unique" ON "private_ips" USING btree ("network_id","instance_type","instance_id");--> statement-breakpoint
CREATE INDEX "private_ips_customer_idx" ON "private_ips" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "private_ips_instance_idx" ON "private_ips" USING btree ("instance_type","instance_id");--> statement-breakpoint
CREATE UNIQUE INDEX "private_networks_uuid_unique" ON "private_networks" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "private_networks_customer_idx" ON "private_networks" USING btree ("customer_id","status");--> statement-breakpoint
CREATE INDEX "private_networks_task_idx" ON "private_networks" USING btree ("updated_at") WHERE "private_networks"."task" is not null;