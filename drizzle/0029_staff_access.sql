CREATE TABLE "admin_password_links" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "admin_password_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"admin_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_settings" ADD COLUMN "staff_two_factor_scope" text DEFAULT 'nobody' NOT NULL;--> statement-breakpoint
ALTER TABLE "admin_password_links" ADD CONSTRAINT "admin_password_links_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "admin_password_links_hash_unique" ON "admin_password_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "admin_password_links_admin_idx" ON "admin_password_links" USING btree ("admin_id");--> statement-breakpoint
ALTER TABLE "app_settings" ADD CONSTRAINT "app_settings_staff_two_factor_scope" CHECK ("app_settings"."staff_two_factor_scope" in ('nobody', 'money_roles', 'all_staff'));--> statement-breakpoint
-- Where 2FA was required of staff (the former yes/no setting), it stays required of the roles that move money.
UPDATE "app_settings" SET "staff_two_factor_scope" = 'money_roles' WHERE "staff_two_factor_required";
