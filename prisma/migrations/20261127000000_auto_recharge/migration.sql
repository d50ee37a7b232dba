-- Auto-recharge: an owner saves a card through Stripe (Checkout in setup
-- mode) and opts in; a sweep charges the card off-session when the balance is
-- below the threshold, at most N times a UTC day. Each charge is an attempt
-- row, unique per (organization, day, number), inserted before Stripe is
-- called, so sweeps racing on several instances start one charge, not two.
-- The credit comes from the verified webhook, once per PaymentIntent.

ALTER TABLE "organizations"
  ADD COLUMN "auto_recharge_enabled" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "auto_recharge_threshold_nanos" BIGINT,
  ADD COLUMN "auto_recharge_amount_cents" INTEGER,
  ADD COLUMN "auto_recharge_max_per_day" INTEGER,
  ADD COLUMN "auto_recharge_disabled_at" TIMESTAMPTZ(3),
  ADD COLUMN "auto_recharge_disabled_reason" TEXT,
  ADD COLUMN "payment_method_id" TEXT,
  ADD COLUMN "payment_method_brand" TEXT,
  ADD COLUMN "payment_method_last4" TEXT,
  ADD COLUMN "payment_method_exp_month" INTEGER,
  ADD COLUMN "payment_method_exp_year" INTEGER,
  ADD COLUMN "payment_method_saved_at" TIMESTAMPTZ(3);

-- Turned on means fully set up: a threshold, an amount, a daily maximum and a card.
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_auto_recharge_complete" CHECK (
  NOT "auto_recharge_enabled" OR (
    "auto_recharge_threshold_nanos" > 0 AND "auto_recharge_amount_cents" > 0
    AND "auto_recharge_max_per_day" BETWEEN 1 AND 10 AND "payment_method_id" IS NOT NULL
  )
);

CREATE TYPE "auto_recharge_status" AS ENUM ('PENDING', 'SUCCEEDED', 'FAILED', 'HELD', 'REFUNDED');

CREATE TABLE "auto_recharge_attempts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "org_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "seq" INTEGER NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'usd',
    "balance_nanos" BIGINT NOT NULL,
    "threshold_nanos" BIGINT NOT NULL,
    "payment_method_id" TEXT NOT NULL,
    "status" "auto_recharge_status" NOT NULL DEFAULT 'PENDING',
    "payment_intent_id" TEXT,
    "charge_id" TEXT,
    "receipt_url" TEXT,
    "credited_at" TIMESTAMPTZ(3),
    "refunded_cents" INTEGER NOT NULL DEFAULT 0,
    "taken_back_cents" INTEGER NOT NULL DEFAULT 0,
    "failure_code" TEXT,
    "failure_message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "auto_recharge_attempts_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "auto_recharge_attempts_payment_intent_id_key" ON "auto_recharge_attempts"("payment_intent_id");
CREATE UNIQUE INDEX "auto_recharge_attempts_charge_id_key" ON "auto_recharge_attempts"("charge_id");
CREATE UNIQUE INDEX "auto_recharge_attempts_org_id_day_seq_key" ON "auto_recharge_attempts"("org_id", "day", "seq");
CREATE INDEX "auto_recharge_attempts_org_id_created_at_idx" ON "auto_recharge_attempts"("org_id", "created_at");
CREATE INDEX "auto_recharge_attempts_status_idx" ON "auto_recharge_attempts"("status");

ALTER TABLE "auto_recharge_attempts" ADD CONSTRAINT "auto_recharge_attempts_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
