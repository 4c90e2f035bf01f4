-- The dashboard's counters (dashboard_counters + dashboard_counter_deltas): statement-level
-- triggers with transition tables INSERT one delta row per counter a statement changed, in the
-- writer's transaction. Inserts never wait for each other, so no writer of customers, wallets or
-- VMs is slowed by another through these counters. `dashboard.compact-counters` folds the deltas in.

-- What one VM row contributes (+1 each) to the counters.
CREATE OR REPLACE FUNCTION dashboard_vm_counts(p_status text, p_location integer, p_memory integer, p_cpu integer, p_os text, p_ip text)
RETURNS TABLE (name text, location_id integer, key text) LANGUAGE sql IMMUTABLE AS $$
  SELECT c.name, p_location, c.key FROM (VALUES
    ('vms.alive', ''), ('vms.ram', p_memory::text), ('vms.cpu', p_cpu::text), ('vms.os', p_os)) AS c(name, key)
  WHERE p_status <> 'Deleted'
  UNION ALL SELECT 'vms.running', p_location, '' WHERE p_status = 'Running'
  UNION ALL SELECT 'vms.public_ips', p_location, '' WHERE p_ip IS NOT NULL;
$$;

CREATE OR REPLACE FUNCTION dashboard_count_vms() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO dashboard_counter_deltas (name, location_id, key, value)
    SELECT c.name, c.location_id, c.key, count(*) FROM new_rows r, dashboard_vm_counts(r.status, r.location_id, r.memory_mb, r.cpu, r.os, r.public_ip) c
    GROUP BY 1, 2, 3;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO dashboard_counter_deltas (name, location_id, key, value)
    SELECT c.name, c.location_id, c.key, -count(*) FROM old_rows r, dashboard_vm_counts(r.status, r.location_id, r.memory_mb, r.cpu, r.os, r.public_ip) c
    GROUP BY 1, 2, 3;
  ELSE
    INSERT INTO dashboard_counter_deltas (name, location_id, key, value)
    SELECT name, location_id, key, sum(v) FROM (
      SELECT c.name, c.location_id, c.key, 1 AS v FROM new_rows r, dashboard_vm_counts(r.status, r.location_id, r.memory_mb, r.cpu, r.os, r.public_ip) c
      UNION ALL
      SELECT c.name, c.location_id, c.key, -1 FROM old_rows r, dashboard_vm_counts(r.status, r.location_id, r.memory_mb, r.cpu, r.os, r.public_ip) c
    ) d GROUP BY 1, 2, 3 HAVING sum(v) <> 0;
  END IF;
  RETURN NULL;
END;
$$;

-- Wallet balances count while their customer is active. The customer's row is read as committed
-- when the statement runs; a concurrent is_active change locks the wallet first (below), so the
-- two never count the same money twice or not at all.
CREATE OR REPLACE FUNCTION dashboard_count_wallets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO dashboard_counter_deltas (name, value)
    SELECT x.name, x.value FROM (
      SELECT sum(n.current_balance) AS cur, sum(n.actual_balance) AS act
      FROM new_rows n JOIN customers c ON c.id = n.customer_id WHERE c.is_active
    ) s, LATERAL (VALUES ('wallets.active_current', s.cur), ('wallets.active_actual', s.act)) AS x(name, value)
    WHERE x.value IS NOT NULL AND x.value <> 0;
  ELSE
    INSERT INTO dashboard_counter_deltas (name, value)
    SELECT x.name, x.value FROM (
      SELECT sum(n.current_balance - o.current_balance) AS cur, sum(n.actual_balance - o.actual_balance) AS act
      FROM new_rows n JOIN old_rows o ON o.customer_id = n.customer_id JOIN customers c ON c.id = n.customer_id WHERE c.is_active
    ) s, LATERAL (VALUES ('wallets.active_current', s.cur), ('wallets.active_actual', s.act)) AS x(name, value)
    WHERE x.value IS NOT NULL AND x.value <> 0;
  END IF;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION dashboard_count_customers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO dashboard_counter_deltas (name, value)
    SELECT x.name, x.value FROM (SELECT count(*) AS n, count(*) FILTER (WHERE is_active) AS a FROM new_rows) s,
      LATERAL (VALUES ('customers.registered', s.n), ('customers.active', s.a)) AS x(name, value)
    WHERE x.value <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO dashboard_counter_deltas (name, value)
    SELECT x.name, -x.value FROM (SELECT count(*) AS n, count(*) FILTER (WHERE is_active) AS a FROM old_rows) s,
      LATERAL (VALUES ('customers.registered', s.n), ('customers.active', s.a)) AS x(name, value)
    WHERE x.value <> 0;
  ELSE
    -- customers whose is_active changed: their wallets' balances move in or out of the active total
    PERFORM 1 FROM wallets w JOIN new_rows n ON n.id = w.customer_id JOIN old_rows o ON o.id = n.id
      WHERE n.is_active IS DISTINCT FROM o.is_active ORDER BY w.customer_id FOR UPDATE OF w;
    INSERT INTO dashboard_counter_deltas (name, value)
    SELECT x.name, x.value FROM (
      SELECT sum(CASE WHEN n.is_active THEN 1 ELSE -1 END) AS a,
             sum(CASE WHEN n.is_active THEN w.current_balance ELSE -w.current_balance END) AS cur,
             sum(CASE WHEN n.is_active THEN w.actual_balance ELSE -w.actual_balance END) AS act
      FROM new_rows n JOIN old_rows o ON o.id = n.id LEFT JOIN wallets w ON w.customer_id = n.id
      WHERE n.is_active IS DISTINCT FROM o.is_active
    ) s, LATERAL (VALUES ('customers.active', s.a), ('wallets.active_current', s.cur), ('wallets.active_actual', s.act)) AS x(name, value)
    WHERE x.value IS NOT NULL AND x.value <> 0;
  END IF;
  RETURN NULL;
END;
$$;

DROP TRIGGER IF EXISTS vms_dashboard_insert ON vms;
CREATE TRIGGER vms_dashboard_insert AFTER INSERT ON vms REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_count_vms();
DROP TRIGGER IF EXISTS vms_dashboard_update ON vms;
CREATE TRIGGER vms_dashboard_update AFTER UPDATE ON vms REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_count_vms();
DROP TRIGGER IF EXISTS vms_dashboard_delete ON vms;
CREATE TRIGGER vms_dashboard_delete AFTER DELETE ON vms REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_count_vms();

DROP TRIGGER IF EXISTS wallets_dashboard_insert ON wallets;
CREATE TRIGGER wallets_dashboard_insert AFTER INSERT ON wallets REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_count_wallets();
DROP TRIGGER IF EXISTS wallets_dashboard_update ON wallets;
CREATE TRIGGER wallets_dashboard_update AFTER UPDATE ON wallets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_count_wallets();

DROP TRIGGER IF EXISTS customers_dashboard_insert ON customers;
CREATE TRIGGER customers_dashboard_insert AFTER INSERT ON customers REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_count_customers();
DROP TRIGGER IF EXISTS customers_dashboard_update ON customers;
CREATE TRIGGER customers_dashboard_update AFTER UPDATE ON customers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_count_customers();
DROP TRIGGER IF EXISTS customers_dashboard_delete ON customers;
CREATE TRIGGER customers_dashboard_delete AFTER DELETE ON customers REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_count_customers();

-- First start with this file: count what is there once (the triggers above, created in this same
-- transaction, hold off writers until it commits). The marker row says it was done.
INSERT INTO dashboard_counters (name, location_id, key, value)
SELECT c.name, c.location_id, c.key, count(*)
FROM vms r, dashboard_vm_counts(r.status, r.location_id, r.memory_mb, r.cpu, r.os, r.public_ip) c
WHERE NOT EXISTS (SELECT 1 FROM dashboard_counters WHERE name = 'counters.initialised')
GROUP BY 1, 2, 3;

INSERT INTO dashboard_counters (name, value)
SELECT x.name, x.value
FROM (SELECT
        (SELECT count(*) FROM customers) AS n,
        (SELECT count(*) FROM customers WHERE is_active) AS a,
        (SELECT coalesce(sum(w.current_balance), 0) FROM wallets w JOIN customers c ON c.id = w.customer_id WHERE c.is_active) AS cur,
        (SELECT coalesce(sum(w.actual_balance), 0) FROM wallets w JOIN customers c ON c.id = w.customer_id WHERE c.is_active) AS act) s,
     LATERAL (VALUES ('counters.initialised', 1::numeric), ('customers.registered', s.n), ('customers.active', s.a),
                     ('wallets.active_current', s.cur), ('wallets.active_actual', s.act)) AS x(name, value)
WHERE NOT EXISTS (SELECT 1 FROM dashboard_counters WHERE name = 'counters.initialised');
