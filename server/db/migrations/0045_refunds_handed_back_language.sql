-- Issue 21/24 (payments-close): the language the customer uses the shop in (their notices are written in it; null: not known yet, the brand's default language), and who marked an owed cash refund as handed back at the branch (refunds.refunded_at is when).
ALTER TABLE "users" ADD COLUMN "language" text;
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "handed_back_by" integer;
--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_handed_back_by_users_id_fk" FOREIGN KEY ("handed_back_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
-- The statistics rollup's revenue is now the money captured (refunds are taken off from the refunds themselves): rebuild it at the next statistics call.
UPDATE "statistics_watermark" SET "built_at" = NULL;
