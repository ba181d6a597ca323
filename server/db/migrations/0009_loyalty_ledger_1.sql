CREATE TABLE "reward_programs" (
	"id" serial PRIMARY KEY NOT NULL,
	"branch_id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"target" integer,
	"product_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"points_per_kd" numeric(10, 3),
	"customer_group_id" integer,
	"discount_percent" numeric(6, 3),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reward_programs_kind_ck" CHECK ("reward_programs"."kind" in ('purchases', 'points', 'discount'))
);
--> statement-breakpoint
ALTER TABLE "customer_wallets" ADD COLUMN "punches" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_wallets" ADD COLUMN "free_items" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_ledger" ADD COLUMN "account" text;--> statement-breakpoint
ALTER TABLE "wallet_ledger" ADD COLUMN "amount" numeric(14, 3);--> statement-breakpoint
ALTER TABLE "wallet_ledger" ADD COLUMN "reference_type" text;--> statement-breakpoint
ALTER TABLE "wallet_ledger" ADD COLUMN "reference_id" integer;--> statement-breakpoint
ALTER TABLE "wallet_ledger" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "wallet_ledger" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "reward_programs" ADD CONSTRAINT "reward_programs_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_programs" ADD CONSTRAINT "reward_programs_customer_group_id_customer_groups_id_fk" FOREIGN KEY ("customer_group_id") REFERENCES "public"."customer_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reward_programs_branch_idx" ON "reward_programs" USING btree ("branch_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reward_programs_active_uq" ON "reward_programs" USING btree ("branch_id","kind") WHERE "reward_programs"."is_active" and "reward_programs"."kind" in ('points', 'purchases');--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_ledger_idempotency_uq" ON "wallet_ledger" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "wallet_ledger_customer_idx" ON "wallet_ledger" USING btree ("user_id","brand_id","account");--> statement-breakpoint
ALTER TABLE "customer_wallets" ADD CONSTRAINT "customer_wallets_points_ck" CHECK ("customer_wallets"."points" >= 0);--> statement-breakpoint
ALTER TABLE "customer_wallets" ADD CONSTRAINT "customer_wallets_balance_ck" CHECK ("customer_wallets"."balance" >= 0);--> statement-breakpoint
ALTER TABLE "customer_wallets" ADD CONSTRAINT "customer_wallets_credit_ck" CHECK ("customer_wallets"."credit" >= 0);--> statement-breakpoint
ALTER TABLE "customer_wallets" ADD CONSTRAINT "customer_wallets_punches_ck" CHECK ("customer_wallets"."punches" >= 0);--> statement-breakpoint
ALTER TABLE "customer_wallets" ADD CONSTRAINT "customer_wallets_free_items_ck" CHECK ("customer_wallets"."free_items" >= 0);