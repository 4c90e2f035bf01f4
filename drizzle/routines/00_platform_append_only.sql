-- Refuses UPDATE, DELETE and TRUNCATE on append-only tables (ledgers, audit log): corrections
-- are new rows. Attach with a row trigger (UPDATE OR DELETE) and a statement trigger (TRUNCATE).
CREATE OR REPLACE FUNCTION refuse_append_only_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
