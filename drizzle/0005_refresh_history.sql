CREATE TABLE "customer_refresh_token_history" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"rotated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- keep the one rotated token each session remembered so far
INSERT INTO "customer_refresh_token_history" ("token_hash", "session_id", "rotated_at") SELECT "previous_refresh_token_hash", "id", "last_access_at" FROM "customer_sessions" WHERE "previous_refresh_token_hash" IS NOT NULL ON CONFLICT DO NOTHING;--> statement-breakpoint
DROP INDEX "customer_sessions_previous_refresh_idx";--> statement-breakpoint
ALTER TABLE "customer_refresh_token_history" ADD CONSTRAINT "customer_refresh_token_history_session_id_customer_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."customer_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_refresh_token_history_session_idx" ON "customer_refresh_token_history" USING btree ("session_id");--> statement-breakpoint
ALTER TABLE "customer_sessions" DROP COLUMN "previous_refresh_token_hash";