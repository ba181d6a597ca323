ALTER TABLE "branches" ADD COLUMN "branch_address_ar" text;--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "delivery_text_ar" text;