CREATE TABLE "resource_lifecycle" (
	"kind" text NOT NULL,
	"resource_id" integer NOT NULL,
	"desired_generation" integer DEFAULT 1 NOT NULL,
	"applied_generation" integer DEFAULT 0 NOT NULL,
	"failed_generation" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"retry_at" timestamp with time zone,
	"due_at" timestamp with time zone,
	"lease_token" uuid,
	"lease_until" timestamp with time zone,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone,
	CONSTRAINT "resource_lifecycle_kind_resource_id_pk" PRIMARY KEY("kind","resource_id"),
	CONSTRAINT "resource_lifecycle_generations" CHECK ("resource_lifecycle"."applied_generation" >= 0 and "resource_lifecycle"."applied_generation" <= "resource_lifecycle"."desired_generation")
);
--> statement-breakpoint
DROP INDEX "private_networks_task_idx";--> statement-breakpoint
-- Work in flight moves into the lifecycle: due at once, so the first sweep queues it.
INSERT INTO "resource_lifecycle" ("kind", "resource_id", "desired_generation", "applied_generation", "failed_generation", "attempts", "last_error", "last_error_at", "retry_at", "due_at")
SELECT 'vm', "id", 1, 0, NULL, 0, NULL, NULL, NULL, now() FROM "vms" WHERE "task" IS NOT NULL;--> statement-breakpoint
INSERT INTO "resource_lifecycle" ("kind", "resource_id", "desired_generation", "applied_generation", "failed_generation", "attempts", "last_error", "last_error_at", "retry_at", "due_at")
SELECT 'vm', "id", 1, 0, 1, 1, coalesce("last_error", 'datacenter call failed'), "updated_at", NULL, NULL FROM "vms" WHERE "task" IS NULL AND "status" = 'Error' AND "failed_task" IS NOT NULL;--> statement-breakpoint
INSERT INTO "resource_lifecycle" ("kind", "resource_id", "desired_generation", "applied_generation", "failed_generation", "attempts", "last_error", "last_error_at", "retry_at", "due_at")
SELECT 'network', "id", 1, 0, CASE WHEN "last_error" IS NULL THEN NULL ELSE 1 END, CASE WHEN "last_error" IS NULL THEN 0 ELSE 1 END, "last_error", CASE WHEN "last_error" IS NULL THEN NULL ELSE "updated_at" END, CASE WHEN "last_error" IS NULL THEN NULL ELSE now() END, now() FROM "private_networks" WHERE "task" IS NOT NULL;--> statement-breakpoint
INSERT INTO "resource_lifecycle" ("kind", "resource_id", "desired_generation", "applied_generation", "failed_generation", "attempts", "last_error", "last_error_at", "retry_at", "due_at")
SELECT 'private_ip', "id", 1, 0, CASE WHEN "last_error" IS NULL THEN NULL ELSE 1 END, CASE WHEN "last_error" IS NULL THEN 0 ELSE 1 END, "last_error", CASE WHEN "last_error" IS NULL THEN NULL ELSE "updated_at" END, CASE WHEN "last_error" IS NULL THEN NULL ELSE now() END, now() FROM "private_ips" WHERE "task" IS NOT NULL;--> statement-breakpoint
INSERT INTO "resource_lifecycle" ("kind", "resource_id", "desired_generation", "applied_generation", "failed_generation", "attempts", "last_error", "last_error_at", "retry_at", "due_at")
SELECT 'security_group', "id", "version", "synced_version", NULL, 0, NULL, NULL, NULL, now() FROM "security_groups" WHERE "version" > "synced_version";--> statement-breakpoint
INSERT INTO "resource_lifecycle" ("kind", "resource_id", "desired_generation", "applied_generation", "failed_generation", "attempts", "last_error", "last_error_at", "retry_at", "due_at")
SELECT 'load_balancer', "id", greatest("version", 1), least("synced_version", greatest("version", 1) - 1), CASE WHEN "last_error" IS NULL THEN NULL ELSE greatest("version", 1) END, CASE WHEN "last_error" IS NULL THEN 0 ELSE 1 END, "last_error", CASE WHEN "last_error" IS NULL THEN NULL ELSE "updated_at" END, CASE WHEN "last_error" IS NULL THEN NULL ELSE now() END, now() FROM "load_balancers" WHERE "status" <> 'Deleted' AND ("version" > "synced_version" OR "status" IN ('Creating', 'Error', 'Deleting'));--> statement-breakpoint
INSERT INTO "resource_lifecycle" ("kind", "resource_id", "desired_generation", "applied_generation", "failed_generation", "attempts", "last_error", "last_error_at", "retry_at", "due_at")
SELECT 'bucket', "id", 1, 0, NULL, 0, NULL, NULL, NULL, now() FROM "object_storage_buckets" WHERE "status" IN ('Creating', 'Deleting');--> statement-breakpoint
INSERT INTO "resource_lifecycle" ("kind", "resource_id", "desired_generation", "applied_generation", "failed_generation", "attempts", "last_error", "last_error_at", "retry_at", "due_at")
SELECT 'bucket', "id", 1, 0, 1, 1, coalesce("backend_error", 'refused by the object storage'), "updated_at", NULL, NULL FROM "object_storage_buckets" WHERE "status" = 'Error';--> statement-breakpoint
INSERT INTO "resource_lifecycle" ("kind", "resource_id", "desired_generation", "applied_generation", "failed_generation", "attempts", "last_error", "last_error_at", "retry_at", "due_at")
SELECT 'access_key', "id", 1, 0, NULL, 0, NULL, NULL, NULL, now() FROM "object_storage_keys" WHERE "status" IN ('Creating', 'Deleting');--> statement-breakpoint
INSERT INTO "resource_lifecycle" ("kind", "resource_id", "desired_generation", "applied_generation", "failed_generation", "attempts", "last_error", "last_error_at", "retry_at", "due_at")
SELECT 'access_key', "id", 1, 0, 1, 1, coalesce("backend_error", 'refused by the object storage'), "updated_at", NULL, NULL FROM "object_storage_keys" WHERE "status" = 'Error';--> statement-breakpoint
CREATE INDEX "resource_lifecycle_due_idx" ON "resource_lifecycle" USING btree ("due_at") WHERE "resource_lifecycle"."due_at" is not null;--> statement-breakpoint
ALTER TABLE "vms" DROP COLUMN "last_error";--> statement-breakpoint
ALTER TABLE "load_balancers" DROP COLUMN "last_error";--> statement-breakpoint
ALTER TABLE "load_balancers" DROP COLUMN "version";--> statement-breakpoint
ALTER TABLE "load_balancers" DROP COLUMN "synced_version";--> statement-breakpoint
ALTER TABLE "private_ips" DROP COLUMN "last_error";--> statement-breakpoint
ALTER TABLE "private_networks" DROP COLUMN "last_error";--> statement-breakpoint
ALTER TABLE "security_groups" DROP COLUMN "version";--> statement-breakpoint
ALTER TABLE "security_groups" DROP COLUMN "synced_version";--> statement-breakpoint
ALTER TABLE "security_groups" DROP COLUMN "synced_at";