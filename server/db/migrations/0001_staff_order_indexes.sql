CREATE INDEX "orders_branch_id_idx" ON "orders" USING btree ("branch_id","id");--> statement-breakpoint
CREATE INDEX "orders_brand_id_idx" ON "orders" USING btree ("brand_id","id");--> statement-breakpoint
CREATE INDEX "orders_branch_arrival_idx" ON "orders" USING btree ("branch_id","arrival");--> statement-breakpoint
CREATE INDEX "refund_requests_order_idx" ON "refund_requests" USING btree ("order_id");