-- The instrument ledger (issue 26): a dilution instrument is followed across
-- filings. Its row is the latest state (status, as of which date, split-adjusted
-- figures with the figures as stated beside them); every state a filing gave is
-- kept in instrument_states with the day it became known, so history is never
-- overwritten. Periodic reports also give going-concern doubt (on the financial
-- report of their period) and what an at-the-market program has left.
ALTER TABLE "dilution_instruments"
    ALTER COLUMN "shares_underlying" DROP NOT NULL,
    ADD COLUMN "status" TEXT NOT NULL DEFAULT 'outstanding',
    ADD COLUMN "as_of" DATE,
    ADD COLUMN "conversion_price_micros" BIGINT,
    ADD COLUMN "stated_shares_underlying" BIGINT,
    ADD COLUMN "stated_price_micros" BIGINT,
    ADD COLUMN "split_adjustment" TEXT,
    ADD COLUMN "anti_dilution" TEXT,
    ADD COLUMN "reported_total" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "xbrl_check" JSONB;

CREATE TABLE "instrument_states" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "company_id" UUID NOT NULL,
    "instrument_type" TEXT NOT NULL,
    "instrument_name" TEXT NOT NULL,
    "known_at" DATE NOT NULL,
    "as_of" DATE NOT NULL,
    "status" TEXT NOT NULL,
    "shares_underlying" BIGINT,
    "price_micros" BIGINT,
    "principal_cents" BIGINT,
    "remaining_cents" BIGINT,
    "expires_at" DATE,
    "quotes" JSONB,
    "source_accession" TEXT,
    "source_form" TEXT,
    "source_filed_at" DATE,
    "source_url" TEXT,
    CONSTRAINT "instrument_states_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "instrument_states_company_id_instrument_type_instrument_nam_key"
    ON "instrument_states"("company_id", "instrument_type", "instrument_name", "known_at", "as_of");

ALTER TABLE "instrument_states" ADD CONSTRAINT "instrument_states_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "financial_reports"
    ADD COLUMN "going_concern" BOOLEAN,
    ADD COLUMN "going_concern_accession" TEXT,
    ADD COLUMN "quotes" JSONB;

ALTER TABLE "registrations"
    ADD COLUMN "atm_remaining_as_of" DATE,
    ADD COLUMN "atm_sold_cents" BIGINT,
    ADD COLUMN "atm_sold_shares" BIGINT,
    ADD COLUMN "atm_report_accession" TEXT,
    ADD COLUMN "atm_report_url" TEXT;
