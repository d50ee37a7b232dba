-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "role" AS ENUM ('OWNER', 'ADMIN', 'MEMBER');

-- CreateEnum
CREATE TYPE "api_key_status" AS ENUM ('ACTIVE', 'DISABLED');

-- CreateEnum
CREATE TYPE "ledger_kind" AS ENUM ('TOPUP', 'USAGE', 'ADJUSTMENT', 'REFUND', 'DISPUTE');

-- CreateEnum
CREATE TYPE "checkout_status" AS ENUM ('OPEN', 'PAID', 'PROCESSING', 'FAILED', 'EXPIRED', 'REFUNDED');

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "email" TEXT NOT NULL,
    "name" TEXT,
    "password_hash" TEXT,
    "is_platform_admin" BOOLEAN NOT NULL DEFAULT false,
    "last_sign_in_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_accounts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_account_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plans" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "allowed_endpoints" TEXT[],
    "requests_per_minute" INTEGER NOT NULL,
    "is_trial" BOOLEAN NOT NULL DEFAULT false,
    "daily_ticker_limit" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "endpoint_prices" (
    "endpoint" TEXT NOT NULL,
    "price_per_gb_nanos" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "endpoint_prices_pkey" PRIMARY KEY ("endpoint")
);

-- CreateTable
CREATE TABLE "organizations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "plan_id" UUID NOT NULL,
    "balance_nanos" BIGINT NOT NULL DEFAULT 0,
    "low_balance_threshold_nanos" BIGINT,
    "stripe_customer_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memberships" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "role" "role" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memberships_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invitations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "org_id" UUID NOT NULL,
    "email" TEXT,
    "role" "role" NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_by_id" UUID,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "org_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "hint" TEXT NOT NULL,
    "status" "api_key_status" NOT NULL DEFAULT 'ACTIVE',
    "allowed_endpoints" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "disabled_at" TIMESTAMPTZ(3),
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "credit_ledger" (
    "id" BIGSERIAL NOT NULL,
    "org_id" UUID NOT NULL,
    "kind" "ledger_kind" NOT NULL,
    "amount_nanos" BIGINT NOT NULL,
    "balance_after_nanos" BIGINT NOT NULL,
    "reference" TEXT,
    "idempotency_key" TEXT,
    "description" TEXT,
    "actor_user_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credit_ledger_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "usage_events" (
    "id" BIGSERIAL NOT NULL,
    "org_id" UUID NOT NULL,
    "api_key_id" UUID,
    "endpoint" TEXT NOT NULL,
    "tickers" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status_code" INTEGER NOT NULL,
    "error_code" TEXT,
    "bytes" INTEGER NOT NULL,
    "cost_nanos" BIGINT NOT NULL,
    "request_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "usage_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trial_ticker_uses" (
    "org_id" UUID NOT NULL,
    "endpoint" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "ticker" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "trial_ticker_uses_pkey" PRIMARY KEY ("org_id","endpoint","day","ticker")
);

-- CreateTable
CREATE TABLE "rate_limit_counters" (
    "bucket" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rate_limit_counters_pkey" PRIMARY KEY ("bucket","window_start")
);

-- CreateTable
CREATE TABLE "stripe_checkout_sessions" (
    "id" TEXT NOT NULL,
    "org_id" UUID NOT NULL,
    "user_id" UUID,
    "amount_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'usd',
    "status" "checkout_status" NOT NULL DEFAULT 'OPEN',
    "payment_intent_id" TEXT,
    "charge_id" TEXT,
    "receipt_url" TEXT,
    "credited_at" TIMESTAMPTZ(3),
    "refunded_cents" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stripe_checkout_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stripe_events" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stripe_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_logs" (
    "id" BIGSERIAL NOT NULL,
    "actor_user_id" UUID,
    "actor_label" TEXT,
    "org_id" UUID,
    "action" TEXT NOT NULL,
    "target_type" TEXT,
    "target_id" TEXT,
    "ip" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_logs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "companies" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "ticker" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "exchange" TEXT NOT NULL,
    "sector" TEXT,
    "is_sample" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "companies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "financial_reports" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "company_id" UUID NOT NULL,
    "period_end" DATE NOT NULL,
    "filed_at" DATE NOT NULL,
    "cash_cents" BIGINT NOT NULL,
    "quarterly_burn_cents" BIGINT NOT NULL,
    "debt_cents" BIGINT NOT NULL DEFAULT 0,
    "reg_sho" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "financial_reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "registrations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "company_id" UUID NOT NULL,
    "accession_number" TEXT NOT NULL,
    "form_type" TEXT NOT NULL,
    "file_number" TEXT NOT NULL,
    "filed_at" DATE NOT NULL,
    "effective_at" DATE,
    "expires_at" DATE,
    "offering_amount_cents" BIGINT NOT NULL,
    "is_atm" BOOLEAN NOT NULL DEFAULT false,
    "atm_remaining_cents" BIGINT,
    "over_baby_shelf" BOOLEAN NOT NULL DEFAULT false,
    "public_float_cents" BIGINT,
    "is_effective" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "registrations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "offerings" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "company_id" UUID NOT NULL,
    "accession_number" TEXT NOT NULL,
    "offering_date" DATE NOT NULL,
    "offering_type" TEXT NOT NULL,
    "form_type" TEXT,
    "shares" BIGINT,
    "price_micros" BIGINT,
    "amount_cents" BIGINT NOT NULL,
    "warrants_issued" BIGINT,
    "warrant_price_micros" BIGINT,
    "underwriter" TEXT,

    CONSTRAINT "offerings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dilution_instruments" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "company_id" UUID NOT NULL,
    "instrument_type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "issued_at" DATE NOT NULL,
    "expires_at" DATE,
    "shares_underlying" BIGINT NOT NULL,
    "exercise_price_micros" BIGINT,
    "principal_cents" BIGINT,
    "remaining_cents" BIGINT,

    CONSTRAINT "dilution_instruments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "compliance_deficiencies" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "company_id" UUID NOT NULL,
    "deficiency" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL,
    "risk" TEXT NOT NULL,
    "notice_date" DATE NOT NULL,
    "deadline" DATE,
    "resolved_at" DATE,
    "status_updates" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "compliance_deficiencies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "float_snapshots" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "company_id" UUID NOT NULL,
    "as_of" DATE NOT NULL,
    "float_shares" BIGINT NOT NULL,
    "outstanding_shares" BIGINT NOT NULL,
    "price_micros" BIGINT,
    "market_cap_cents" BIGINT,
    "insider_ownership_bps" INTEGER,
    "institutional_ownership_bps" INTEGER,

    CONSTRAINT "float_snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "oauth_accounts_user_id_idx" ON "oauth_accounts"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_accounts_provider_provider_account_id_key" ON "oauth_accounts"("provider", "provider_account_id");

-- CreateIndex
CREATE UNIQUE INDEX "plans_slug_key" ON "plans"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "organizations_stripe_customer_id_key" ON "organizations"("stripe_customer_id");

-- CreateIndex
CREATE INDEX "organizations_plan_id_idx" ON "organizations"("plan_id");

-- CreateIndex
CREATE INDEX "memberships_org_id_idx" ON "memberships"("org_id");

-- CreateIndex
CREATE UNIQUE INDEX "memberships_user_id_org_id_key" ON "memberships"("user_id", "org_id");

-- CreateIndex
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");

-- CreateIndex
CREATE INDEX "invitations_org_id_idx" ON "invitations"("org_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_org_id_idx" ON "api_keys"("org_id");

-- CreateIndex
CREATE INDEX "api_keys_hint_idx" ON "api_keys"("hint");

-- CreateIndex
CREATE UNIQUE INDEX "credit_ledger_idempotency_key_key" ON "credit_ledger"("idempotency_key");

-- CreateIndex
CREATE INDEX "credit_ledger_org_id_created_at_idx" ON "credit_ledger"("org_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "usage_events_request_id_key" ON "usage_events"("request_id");

-- CreateIndex
CREATE INDEX "usage_events_org_id_created_at_idx" ON "usage_events"("org_id", "created_at");

-- CreateIndex
CREATE INDEX "usage_events_api_key_id_created_at_idx" ON "usage_events"("api_key_id", "created_at");

-- CreateIndex
CREATE INDEX "rate_limit_counters_expires_at_idx" ON "rate_limit_counters"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "stripe_checkout_sessions_payment_intent_id_key" ON "stripe_checkout_sessions"("payment_intent_id");

-- CreateIndex
CREATE UNIQUE INDEX "stripe_checkout_sessions_charge_id_key" ON "stripe_checkout_sessions"("charge_id");

-- CreateIndex
CREATE INDEX "stripe_checkout_sessions_org_id_created_at_idx" ON "stripe_checkout_sessions"("org_id", "created_at");

-- CreateIndex
CREATE INDEX "audit_logs_org_id_created_at_idx" ON "audit_logs"("org_id", "created_at");

-- CreateIndex
CREATE INDEX "audit_logs_actor_user_id_created_at_idx" ON "audit_logs"("actor_user_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "companies_ticker_key" ON "companies"("ticker");

-- CreateIndex
CREATE UNIQUE INDEX "financial_reports_company_id_period_end_key" ON "financial_reports"("company_id", "period_end");

-- CreateIndex
CREATE UNIQUE INDEX "registrations_accession_number_key" ON "registrations"("accession_number");

-- CreateIndex
CREATE INDEX "registrations_company_id_filed_at_idx" ON "registrations"("company_id", "filed_at");

-- CreateIndex
CREATE UNIQUE INDEX "offerings_accession_number_key" ON "offerings"("accession_number");

-- CreateIndex
CREATE INDEX "offerings_company_id_offering_date_idx" ON "offerings"("company_id", "offering_date");

-- CreateIndex
CREATE INDEX "dilution_instruments_company_id_issued_at_idx" ON "dilution_instruments"("company_id", "issued_at");

-- CreateIndex
CREATE UNIQUE INDEX "dilution_instruments_company_id_instrument_type_name_key" ON "dilution_instruments"("company_id", "instrument_type", "name");

-- CreateIndex
CREATE INDEX "compliance_deficiencies_company_id_notice_date_idx" ON "compliance_deficiencies"("company_id", "notice_date");

-- CreateIndex
CREATE UNIQUE INDEX "compliance_deficiencies_company_id_deficiency_notice_date_key" ON "compliance_deficiencies"("company_id", "deficiency", "notice_date");

-- CreateIndex
CREATE UNIQUE INDEX "float_snapshots_company_id_as_of_key" ON "float_snapshots"("company_id", "as_of");

-- AddForeignKey
ALTER TABLE "oauth_accounts" ADD CONSTRAINT "oauth_accounts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "usage_events" ADD CONSTRAINT "usage_events_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "usage_events" ADD CONSTRAINT "usage_events_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trial_ticker_uses" ADD CONSTRAINT "trial_ticker_uses_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "stripe_checkout_sessions" ADD CONSTRAINT "stripe_checkout_sessions_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_logs" ADD CONSTRAINT "audit_logs_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "financial_reports" ADD CONSTRAINT "financial_reports_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offerings" ADD CONSTRAINT "offerings_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dilution_instruments" ADD CONSTRAINT "dilution_instruments_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "compliance_deficiencies" ADD CONSTRAINT "compliance_deficiencies_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "float_snapshots" ADD CONSTRAINT "float_snapshots_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- The credit ledger is append-only: rows are written, never changed.
CREATE FUNCTION "credit_ledger_forbid_update"() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'credit_ledger is append-only';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "credit_ledger_no_update" BEFORE UPDATE ON "credit_ledger"
  FOR EACH ROW EXECUTE FUNCTION "credit_ledger_forbid_update"();
