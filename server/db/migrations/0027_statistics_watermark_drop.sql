ALTER TABLE "statistics_watermark" DROP COLUMN "settled_order_id";--> statement-breakpoint
ALTER TABLE "statistics_watermark" DROP COLUMN "pending_order_id";--> statement-breakpoint
ALTER TABLE "statistics_watermark" DROP COLUMN "settled_changed_at";--> statement-breakpoint
ALTER TABLE "statistics_watermark" DROP COLUMN "pending_changed_at";--> statement-breakpoint
ALTER TABLE "statistics_watermark" DROP COLUMN "pending_since";