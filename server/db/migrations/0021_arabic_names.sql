ALTER TABLE "branches" ADD COLUMN "name_ar" text;--> statement-breakpoint
ALTER TABLE "brands" ADD COLUMN "name_ar" text;--> statement-breakpoint
ALTER TABLE "option_groups" ADD COLUMN "name_ar" text;--> statement-breakpoint
ALTER TABLE "option_items" ADD COLUMN "name_ar" text;--> statement-breakpoint
ALTER TABLE "product_subtypes" ADD COLUMN "name_ar" text;--> statement-breakpoint
ALTER TABLE "product_types" ADD COLUMN "name_ar" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "name_ar" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "description_ar" text;