CREATE TABLE "customer_brand_orders" (
	"user_id" integer NOT NULL,
	"brand_id" integer NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"first_id" integer NOT NULL,
	"second_at" timestamp with time zone,
	"second_id" integer,
	"last_at" timestamp with time zone NOT NULL,
	"last_id" integer NOT NULL,
	CONSTRAINT "customer_brand_orders_user_id_brand_id_pk" PRIMARY KEY("user_id","brand_id")
);
--> statement-breakpoint
CREATE TABLE "order_daily_stats" (
	"branch_id" integer NOT NULL,
	"day" integer NOT NULL,
	"brand_id" integer NOT NULL,
	"orders" integer NOT NULL,
	"revenue" numeric(12, 3) DEFAULT '0' NOT NULL,
	"by_hour" integer[] NOT NULL,
	"accepted" integer NOT NULL,
	"rejected" integer NOT NULL,
	"not_accepted_in_time" integer NOT NULL,
	"no_shows" integer NOT NULL,
	"refunded" integer NOT NULL,
	"refunded_amount" numeric(12, 3) DEFAULT '0' NOT NULL,
	CONSTRAINT "order_daily_stats_branch_id_day_pk" PRIMARY KEY("branch_id","day")
);
--> statement-breakpoint
CREATE TABLE "statistics_watermark" (
	"id" integer PRIMARY KEY NOT NULL,
	"settled_order_id" integer DEFAULT 0 NOT NULL,
	"pending_order_id" integer,
	"settled_changed_at" timestamp with time zone,
	"pending_changed_at" timestamp with time zone,
	"pending_since" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "orders_paid_idx";--> statement-breakpoint
CREATE INDEX "customer_brand_orders_brand_idx" ON "customer_brand_orders" USING btree ("brand_id","last_at");--> statement-breakpoint
CREATE INDEX "order_daily_stats_brand_day_idx" ON "order_daily_stats" USING btree ("brand_id","day");--> statement-breakpoint
CREATE INDEX "orders_paid_at_idx" ON "orders" USING btree ("paid_at","id") WHERE "orders"."payment" = 'paid';--> statement-breakpoint
CREATE INDEX "orders_paid_method_idx" ON "orders" USING btree ("payment_system_id","paid_at","id") WHERE "orders"."payment" = 'paid';--> statement-breakpoint
CREATE INDEX "orders_changed_idx" ON "orders" USING btree ("updated_at") WHERE "orders"."version" > 0;--> statement-breakpoint
CREATE INDEX "orders_paid_idx" ON "orders" USING btree ("brand_id","paid_at","id") WHERE "orders"."payment" = 'paid';