-- Issue 24 "pay with the wallet": the payment method an order paid from the customer's brand wallet carries (server/loyalty/walletPayment.ts). No brand switches it on: the checkout offers the wallet to a signed-in customer by its balance, not in the list of payment methods.
INSERT INTO "payment_systems" ("id", "name", "name_ar", "provider", "is_card") VALUES
	(8, 'Wallet', 'المحفظة', 'wallet', false)
ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('payment_systems', 'id'), greatest((SELECT max("id") FROM "payment_systems"), 1));
