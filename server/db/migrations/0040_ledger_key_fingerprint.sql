ALTER TABLE "wallet_ledger" ADD COLUMN "key_fingerprint" text;
