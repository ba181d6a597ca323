ALTER TABLE "wallet_ledger" ALTER COLUMN "account" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_ledger" ALTER COLUMN "amount" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_ledger" ALTER COLUMN "reference_type" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_ledger" ALTER COLUMN "idempotency_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_ledger" DROP COLUMN "points_delta";--> statement-breakpoint
ALTER TABLE "wallet_ledger" DROP COLUMN "balance_delta";