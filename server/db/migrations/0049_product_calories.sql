-- Issue 22: calories on products (a real field added end to end). Null: not given; otherwise 0..10000, as the API checks (a 400 before this constraint is ever met).
ALTER TABLE "products" ADD COLUMN "calories" integer;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_calories_check" CHECK ("calories" BETWEEN 0 AND 10000);
