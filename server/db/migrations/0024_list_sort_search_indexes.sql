DROP INDEX "orders_status_idx";--> statement-breakpoint
CREATE INDEX "orders_branch_status_id_idx" ON "orders" USING btree ("branch_id","status","id");--> statement-breakpoint
CREATE INDEX "orders_brand_status_id_idx" ON "orders" USING btree ("brand_id","status","id");--> statement-breakpoint
CREATE INDEX "orders_status_id_idx" ON "orders" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "orders_branch_total_idx" ON "orders" USING btree ("branch_id","total","id");--> statement-breakpoint
CREATE INDEX "orders_brand_total_idx" ON "orders" USING btree ("brand_id","total","id");--> statement-breakpoint
CREATE INDEX "orders_total_idx" ON "orders" USING btree ("total","id");--> statement-breakpoint
CREATE INDEX "orders_created_id_idx" ON "orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "orders_search_trgm_idx" ON "orders" USING gin (("order_number" || ' ' || coalesce("guest_customer_name", '') || ' ' || coalesce("guest_phone_number", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_full_name_trgm_idx" ON "users" USING gin ("full_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_phone_trgm_idx" ON "users" USING gin ("phone_number" gin_trgm_ops);