-- The dashboard's hourly money totals (dashboard_hourly_totals), kept in the same transaction as
-- the rows they count, by statement-level triggers with transition tables (one upsert per hour
-- touched, whether a statement inserts one ledger entry or a million).
--   deposit/topup: balance_logs of type BalanceLogAdd (the top-up credit), actual_amount, created_at
--   revenue/topup: topup_invoices entering status Paid (amount at paid_at: what the platform keeps,
--                  without the payment fee); leaving Paid (never done today) takes it back out
--   gateway_fee/topup: the fee of the same invoices (collected for the payment method, not revenue),
--                  counted when there is one
-- A postpaid invoice table adds its own trigger writing metric 'revenue', source 'postpaid'.

CREATE OR REPLACE FUNCTION dashboard_add_hourly(p_metric text, p_source text, p_hour timestamptz, p_amount numeric, p_entries integer)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO dashboard_hourly_totals (metric, source, hour, amount, entries)
  VALUES (p_metric, p_source, p_hour, p_amount, p_entries)
  ON CONFLICT (metric, hour, source) DO UPDATE
    SET amount = dashboard_hourly_totals.amount + excluded.amount,
        entries = dashboard_hourly_totals.entries + excluded.entries;
$$;

CREATE OR REPLACE FUNCTION dashboard_count_deposits() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- sorted by hour so that concurrent statements take the row locks in one order
  PERFORM dashboard_add_hourly('deposit', 'topup', h.hour, h.amount, h.entries)
  FROM (
    SELECT date_trunc('hour', created_at, 'UTC') AS hour, sum(actual_amount) AS amount, count(*)::int AS entries
    FROM new_rows WHERE type = 'BalanceLogAdd'
    GROUP BY 1 ORDER BY 1
  ) h;
  RETURN NULL;
END;
$$;

-- Invoices entering Paid (sign 1) or leaving it (sign -1): their amount is revenue and their fee,
-- when there is one, gateway_fee. The fee rows are written before the revenue rows, each sorted by
-- hour, so that concurrent statements take the row locks in one order.
CREATE OR REPLACE FUNCTION dashboard_count_paid_topups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM dashboard_add_hourly('gateway_fee', 'topup', h.hour, h.amount, h.entries)
    FROM (
      SELECT date_trunc('hour', paid_at, 'UTC') AS hour, sum(fee) AS amount, count(*)::int AS entries
      FROM new_rows WHERE status = 'Paid' AND paid_at IS NOT NULL AND fee > 0
      GROUP BY 1 ORDER BY 1
    ) h;
    PERFORM dashboard_add_hourly('revenue', 'topup', h.hour, h.amount, h.entries)
    FROM (
      SELECT date_trunc('hour', paid_at, 'UTC') AS hour, sum(amount) AS amount, count(*)::int AS entries
      FROM new_rows WHERE status = 'Paid' AND paid_at IS NOT NULL
      GROUP BY 1 ORDER BY 1
    ) h;
  ELSE
    PERFORM dashboard_add_hourly('gateway_fee', 'topup', h.hour, h.amount, h.entries)
    FROM (
      SELECT hour, sum(fee) AS amount, sum(entries)::int AS entries FROM (
        SELECT date_trunc('hour', n.paid_at, 'UTC') AS hour, n.amount, n.fee, 1 AS entries
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE n.status = 'Paid' AND n.paid_at IS NOT NULL AND (o.status <> 'Paid' OR o.paid_at IS NULL)
        UNION ALL
        SELECT date_trunc('hour', o.paid_at, 'UTC'), -o.amount, -o.fee, -1
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE o.status = 'Paid' AND o.paid_at IS NOT NULL AND (n.status <> 'Paid' OR n.paid_at IS NULL)
      ) d WHERE fee <> 0 GROUP BY hour ORDER BY hour
    ) h;
    PERFORM dashboard_add_hourly('revenue', 'topup', h.hour, h.amount, h.entries)
    FROM (
      SELECT hour, sum(amount) AS amount, sum(entries)::int AS entries FROM (
        SELECT date_trunc('hour', n.paid_at, 'UTC') AS hour, n.amount, n.fee, 1 AS entries
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE n.status = 'Paid' AND n.paid_at IS NOT NULL AND (o.status <> 'Paid' OR o.paid_at IS NULL)
        UNION ALL
        SELECT date_trunc('hour', o.paid_at, 'UTC'), -o.amount, -o.fee, -1
        FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE o.status = 'Paid' AND o.paid_at IS NOT NULL AND (n.status <> 'Paid' OR n.paid_at IS NULL)
      ) d GROUP BY hour ORDER BY hour
    ) h;
  END IF;
  RETURN NULL;
END;
$$;

DROP TRIGGER IF EXISTS balance_logs_dashboard_totals ON balance_logs;
CREATE TRIGGER balance_logs_dashboard_totals AFTER INSERT ON balance_logs
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_count_deposits();

DROP TRIGGER IF EXISTS topup_invoices_dashboard_insert ON topup_invoices;
CREATE TRIGGER topup_invoices_dashboard_insert AFTER INSERT ON topup_invoices
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_count_paid_topups();

DROP TRIGGER IF EXISTS topup_invoices_dashboard_update ON topup_invoices;
CREATE TRIGGER topup_invoices_dashboard_update AFTER UPDATE ON topup_invoices
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_count_paid_topups();

-- First start with this file on a database that already holds money: fill the totals once. The
-- triggers above exist from here on, so the table is never empty again once anything was counted.
INSERT INTO dashboard_hourly_totals (metric, source, hour, amount, entries)
SELECT 'deposit', 'topup', date_trunc('hour', created_at, 'UTC'), sum(actual_amount), count(*)::int
FROM balance_logs
WHERE type = 'BalanceLogAdd' AND NOT EXISTS (SELECT 1 FROM dashboard_hourly_totals WHERE metric = 'deposit')
GROUP BY 3;

INSERT INTO dashboard_hourly_totals (metric, source, hour, amount, entries)
SELECT 'revenue', 'topup', date_trunc('hour', paid_at, 'UTC'), sum(amount), count(*)::int
FROM topup_invoices
WHERE status = 'Paid' AND paid_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM dashboard_hourly_totals WHERE metric = 'revenue' AND source = 'topup')
GROUP BY 3;

INSERT INTO dashboard_hourly_totals (metric, source, hour, amount, entries)
SELECT 'gateway_fee', 'topup', date_trunc('hour', paid_at, 'UTC'), sum(fee), count(*)::int
FROM topup_invoices
WHERE status = 'Paid' AND paid_at IS NOT NULL AND fee > 0 AND NOT EXISTS (SELECT 1 FROM dashboard_hourly_totals WHERE metric = 'gateway_fee' AND source = 'topup')
GROUP BY 3;
