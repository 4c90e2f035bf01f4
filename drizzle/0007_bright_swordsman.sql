CREATE TABLE "price_versions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "price_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"price_key" text NOT NULL,
	"location_id" integer NOT NULL,
	"monthly_price" numeric(18, 2) NOT NULL,
	"hourly_price" numeric(18, 6) NOT NULL,
	"effective_from" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_versions_non_negative" CHECK ("price_versions"."monthly_price" >= 0 AND "price_versions"."hourly_price" >= 0)
);
--> statement-breakpoint
ALTER TABLE "price_versions" ADD CONSTRAINT "price_versions_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_versions_lookup_idx" ON "price_versions" USING btree ("price_key","location_id","effective_from");