-- Rows written before the ledger had accounts: points rows are 'points', money rows 'wallet'.
UPDATE "wallet_ledger" SET
  "account" = CASE WHEN "points_delta" <> 0 THEN 'points' ELSE 'wallet' END,
  "amount" = CASE WHEN "points_delta" <> 0 THEN "points_delta" ELSE "balance_delta" END,
  "reference_type" = CASE WHEN "order_id" IS NULL THEN 'adjustment' ELSE 'order' END,
  "reference_id" = "order_id",
  "idempotency_key" = 'legacy:' || "id"
WHERE "account" IS NULL;
--> statement-breakpoint
-- Balances set before the ledger existed get one opening row each, so every cached balance equals its rows' sum.
INSERT INTO "wallet_ledger" ("user_id", "brand_id", "account", "amount", "reference_type", "reason", "idempotency_key")
SELECT w."user_id", w."brand_id", a."account", a."cached" - COALESCE((
    SELECT sum(l."amount") FROM "wallet_ledger" l
    WHERE l."user_id" = w."user_id" AND l."brand_id" = w."brand_id" AND l."account" = a."account"), 0),
  'opening', 'Opening balance', 'opening:' || w."user_id" || ':' || w."brand_id" || ':' || a."account"
FROM "customer_wallets" w
CROSS JOIN LATERAL (VALUES ('points', w."points"::numeric), ('wallet', w."balance"), ('credit', w."credit")) AS a("account", "cached")
WHERE a."cached" <> COALESCE((
    SELECT sum(l."amount") FROM "wallet_ledger" l
    WHERE l."user_id" = w."user_id" AND l."brand_id" = w."brand_id" AND l."account" = a."account"), 0);
--> statement-breakpoint
-- The ledger is append-only: a change is a new row, never an edit or a removal of an old one.
CREATE FUNCTION "wallet_ledger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'wallet_ledger is append-only';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "wallet_ledger_append_only" BEFORE UPDATE OR DELETE ON "wallet_ledger"
  FOR EACH ROW EXECUTE FUNCTION "wallet_ledger_append_only"();
