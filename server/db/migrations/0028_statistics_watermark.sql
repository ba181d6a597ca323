ALTER TABLE "statistics_watermark" ADD COLUMN "built_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "statistics_watermark" ADD COLUMN "seen_order_id" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "statistics_watermark" ADD COLUMN "missing_order_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "statistics_watermark" ADD COLUMN "seen_changed_at" timestamp with time zone;