ALTER TABLE "admin_refresh_tokens" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "customer_refresh_token_history" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "admin_refresh_tokens" CASCADE;--> statement-breakpoint
DROP TABLE "customer_refresh_token_history" CASCADE;--> statement-breakpoint
DROP INDEX "customer_sessions_refresh_unique";--> statement-breakpoint
ALTER TABLE "customer_sessions" DROP COLUMN "refresh_token_hash";