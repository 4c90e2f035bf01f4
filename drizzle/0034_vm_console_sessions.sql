CREATE TABLE "vm_console_sessions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "vm_console_sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"vm_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"admin_id" integer,
	"requester_session" text NOT NULL,
	"ticket_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"opened_at" timestamp with time zone,
	"seen_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"close_reason" text
);
--> statement-breakpoint
ALTER TABLE "vm_console_sessions" ADD CONSTRAINT "vm_console_sessions_vm_id_vms_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."vms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_console_sessions" ADD CONSTRAINT "vm_console_sessions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "vm_console_sessions_ticket_unique" ON "vm_console_sessions" USING btree ("ticket_hash");--> statement-breakpoint
CREATE INDEX "vm_console_sessions_live_vm_idx" ON "vm_console_sessions" USING btree ("vm_id") WHERE "vm_console_sessions"."opened_at" is not null and "vm_console_sessions"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "vm_console_sessions_live_customer_idx" ON "vm_console_sessions" USING btree ("customer_id") WHERE "vm_console_sessions"."opened_at" is not null and "vm_console_sessions"."closed_at" is null;