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
ALTER TABLE "security_group_attachments" ADD CONSTRAINT "security_group_attachments_group_id_security_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."security_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_group_attachments" ADD CONSTRAINT "security_group_attachments_vm_id_vms_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."vms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_group_rules" ADD CONSTRAINT "security_group_rules_group_id_security_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."security_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_group_rules" ADD CONSTRAINT "security_group_rules_rule_type_fk" FOREIGN KEY ("rule_type_id") REFERENCES "public"."firewall_rule_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_groups" ADD CONSTRAINT "security_groups_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_groups" ADD CONSTRAINT "security_groups_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "security_group_attachments_vm_idx" ON "security_group_attachments" USING btree ("vm_id");--> statement-breakpoint
CREATE INDEX "security_group_rules_group_idx" ON "security_group_rules" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "security_group_rules_type_idx" ON "security_group_rules" USING btree ("rule_type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "security_groups_uuid_unique" ON "security_groups" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "security_groups_name_unique" ON "security_groups" USING btree ("customer_id",lower("name")) WHERE "security_groups"."deleted_at" is null;