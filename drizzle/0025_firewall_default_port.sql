ALTER TABLE "firewall_rule_types" ADD COLUMN "default_port" integer;--> statement-breakpoint
ALTER TABLE "firewall_rule_types" ADD CONSTRAINT "firewall_rule_types_default_port" CHECK ("firewall_rule_types"."default_port" is null or ("firewall_rule_types"."protocol" in ('tcp', 'udp') and "firewall_rule_types"."default_port" between 1 and 65535));--> statement-breakpoint
-- The rule types seeded on a fresh database get the port their description names.
UPDATE "firewall_rule_types" f SET "default_port" = d."port"
FROM (VALUES ('ssh', 'tcp', 22), ('http', 'tcp', 80), ('https', 'tcp', 443), ('dns', 'udp', 53)) AS d("name", "protocol", "port")
WHERE lower(f."name") = d."name" AND f."protocol" = d."protocol" AND f."default_port" IS NULL;
