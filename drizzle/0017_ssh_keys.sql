CREATE TABLE "ssh_keys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ssh_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"name" text NOT NULL,
	"public_key" text NOT NULL,
	"key_type" text NOT NULL,
	"bits" integer NOT NULL,
	"fingerprint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ssh_keys" ADD CONSTRAINT "ssh_keys_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ssh_keys_fingerprint_unique" ON "ssh_keys" USING btree ("customer_id","fingerprint");--> statement-breakpoint
CREATE UNIQUE INDEX "ssh_keys_name_unique" ON "ssh_keys" USING btree ("customer_id",lower("name"));--> statement-breakpoint
CREATE INDEX "ssh_keys_customer_idx" ON "ssh_keys" USING btree ("customer_id","id");