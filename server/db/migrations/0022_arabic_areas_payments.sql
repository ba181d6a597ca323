ALTER TABLE "delivery_areas" ADD COLUMN "name_ar" text;--> statement-breakpoint
ALTER TABLE "payment_systems" ADD COLUMN "name_ar" text;