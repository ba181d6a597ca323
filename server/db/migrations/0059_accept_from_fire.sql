-- Issue 25: the quality report's time to accept counts from the fire time of an order for later (coalesce(fired_at, created_at); server/services/statistic/rollup.ts ACCEPT_SECONDS), so the partial indexes hold the new expression, with fired_at for index-only reads.
DROP INDEX "orders_accept_seconds_idx";--> statement-breakpoint
DROP INDEX "orders_accept_seconds_all_idx";--> statement-breakpoint
CREATE INDEX "orders_accept_seconds_all_idx" ON "orders" USING btree ((extract(epoch from ("accepted_at" - coalesce("fired_at", "created_at")))),"branch_id","created_at","accepted_at","fired_at") WHERE "orders"."accepted_at" is not null;--> statement-breakpoint
CREATE INDEX "orders_accept_seconds_idx" ON "orders" USING btree ("branch_id",(extract(epoch from ("accepted_at" - coalesce("fired_at", "created_at")))),"created_at","accepted_at","fired_at") WHERE "orders"."accepted_at" is not null;--> statement-breakpoint
-- The rollup's histograms of days with fired orders were counted from the placement: when there are any, the next statistics call builds the rollup again from the orders (as its first call does).
UPDATE "statistics_watermark" SET "built_at" = NULL WHERE EXISTS (SELECT 1 FROM "orders" WHERE "fired_at" IS NOT NULL AND "accepted_at" IS NOT NULL);
