CREATE TABLE "object_storage_buckets" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "object_storage_buckets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" integer NOT NULL,
	"name" text NOT NULL,
	"location_id" integer NOT NULL,
	"public_acl" text DEFAULT 'P' NOT NULL,
	"size_gb" integer NOT NULL,
	"status" text DEFAULT 'Creating' NOT NULL,
	"backend_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "object_storage_buckets_public_acl" CHECK ("object_storage_buckets"."public_acl" in ('A','P')),
	CONSTRAINT "object_storage_buckets_size" CHECK ("object_storage_buckets"."size_gb" between 1 and 102400),
	CONSTRAINT "object_storage_buckets_status" CHECK ("object_storage_buckets"."status" in ('Creating','Active','Deleting','Deleted','Error'))
);
--> statement-breakpoint
CREATE TABLE "object_storage_grants" (
	"key_id" integer NOT NULL,
	"bucket_id" integer NOT NULL,
	"acl" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "object_storage_grants_key_id_bucket_id_pk" PRIMARY KEY("key_id","bucket_id"),
	CONSTRAINT "object_storage_grants_acl" CHECK ("object_storage_grants"."acl" in ('Read_Only','Read_Write'))
);
--> statement-breakpoint
CREATE TABLE "object_storage_keys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "object_storage_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"name" text NOT NULL,
	"location_id" integer NOT NULL,
	"access_key" text NOT NULL,
	"secret_sealed" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"suspended" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'Creating' NOT NULL,
	"backend_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "object_storage_keys_status" CHECK ("object_storage_keys"."status" in ('Creating','Active','Deleting','Deleted','Error'))
);
--> statement-breakpoint
ALTER TABLE "object_storage_buckets" ADD CONSTRAINT "object_storage_buckets_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "object_storage_buckets" ADD CONSTRAINT "object_storage_buckets_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "object_storage_grants" ADD CONSTRAINT "object_storage_grants_key_id_object_storage_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."object_storage_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "object_storage_grants" ADD CONSTRAINT "object_storage_grants_bucket_id_object_storage_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."object_storage_buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "object_storage_keys" ADD CONSTRAINT "object_storage_keys_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "object_storage_keys" ADD CONSTRAINT "object_storage_keys_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "object_storage_buckets_uuid_unique" ON "object_storage_buckets" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "object_storage_buckets_name_unique" ON "object_storage_buckets" USING btree ("name") WHERE "object_storage_buckets"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "object_storage_buckets_customer_idx" ON "object_storage_buckets" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "object_storage_grants_bucket_idx" ON "object_storage_grants" USING btree ("bucket_id");--> statement-breakpoint
CREATE UNIQUE INDEX "object_storage_keys_access_key_unique" ON "object_storage_keys" USING btree ("access_key");--> statement-breakpoint
CREATE INDEX "object_storage_keys_customer_idx" ON "object_storage_keys" USING btree ("customer_id");