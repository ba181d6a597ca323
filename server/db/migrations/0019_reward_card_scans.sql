CREATE TABLE "reward_card_scans" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"brand_id" integer NOT NULL,
	"branch_id" integer NOT NULL,
	"scan_type" text NOT NULL,
	"order_id" integer,
	"scanned_by" integer,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reward_card_scans_type_ck" CHECK ("reward_card_scans"."scan_type" in ('reward', 'redemption'))
);
--> statement-breakpoint
ALTER TABLE "reward_card_scans" ADD CONSTRAINT "reward_card_scans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_card_scans" ADD CONSTRAINT "reward_card_scans_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_card_scans" ADD CONSTRAINT "reward_card_scans_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_card_scans" ADD CONSTRAINT "reward_card_scans_scanned_by_users_id_fk" FOREIGN KEY ("scanned_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reward_card_scans_brand_idx" ON "reward_card_scans" USING btree ("brand_id","created_at");--> statement-breakpoint
CREATE INDEX "reward_card_scans_user_idx" ON "reward_card_scans" USING btree ("user_id","brand_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reward_card_scans_idempotency_uq" ON "reward_card_scans" USING btree ("idempotency_key");