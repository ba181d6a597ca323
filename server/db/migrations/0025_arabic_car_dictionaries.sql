ALTER TABLE "car_brands" ADD COLUMN "name_ar" text;--> statement-breakpoint
ALTER TABLE "car_colors" ADD COLUMN "name_ar" text;--> statement-breakpoint
ALTER TABLE "car_types" ADD COLUMN "name_ar" text;