-- Issue 25, menus by time of day: availability windows per weekday on a product type, a sub-type or a product ([{ "weekday", "fromMinute", "toMinute" }], Kuwait time; domain/menuWindows.ts). Empty: always. A column on each of the three rows, not a table: the windows are read and written only with their row, and the catalog triggers (0029) already move catalog_version on any update of these rows.
ALTER TABLE "product_types" ADD COLUMN "availability_windows" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "product_subtypes" ADD COLUMN "availability_windows" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "availability_windows" jsonb DEFAULT '[]'::jsonb NOT NULL;
