-- A meter may name a fallback price key: charged while its own key has no price in force.
ALTER TABLE "meters" ADD COLUMN "fallback_price_key" text;--> statement-breakpoint
-- The open public IP meters of VMs move to their tier's own key, falling back on the location's
-- price they were charged at so far (no tier has its own price of a component yet).
UPDATE "meters" m SET "fallback_price_key" = m."price_key", "price_key" = 'tier:' || v."tier_id" || ':' || m."price_key"
FROM "vms" v
WHERE m."resource_type" = 'vm' AND m."resource_id" = v."id"::text AND m."stopped_at" IS NULL AND m."price_key" LIKE 'component:%';--> statement-breakpoint
-- A tier's package price names its component (vm_tier), as every other price does.
UPDATE "price_schedules" SET "component_id" = (SELECT "id" FROM "components" WHERE "code" = 'vm_tier')
WHERE "tier_id" IS NOT NULL AND "component_id" IS NULL;
