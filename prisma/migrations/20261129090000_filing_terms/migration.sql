-- What the prospectuses and registration statements state, beside what the
-- records held before (issue 25): offering terms and the S-1 pipeline,
-- registered and pre-funded warrants, resale and shelf registrations with their
-- ATM agent and deregistration, and per record the quote each value was read
-- from ({"api field": "quote"}). All additive: existing rows keep their values.
ALTER TABLE "offerings"
  ADD COLUMN "status" TEXT NOT NULL DEFAULT 'priced',
  ADD COLUMN "prefunded_warrants" BIGINT,
  ADD COLUMN "prefunded_price_micros" BIGINT,
  ADD COLUMN "net_proceeds_cents" BIGINT,
  ADD COLUMN "fee_bps" INTEGER,
  ADD COLUMN "agent_role" TEXT,
  ADD COLUMN "overallotment_shares" BIGINT,
  ADD COLUMN "anticipated_amount_cents" BIGINT,
  ADD COLUMN "revised_amount_cents" BIGINT,
  ADD COLUMN "withdrawn_at" DATE,
  ADD COLUMN "quotes" JSONB;

ALTER TABLE "registrations"
  ADD COLUMN "is_resale" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "is_shelf" BOOLEAN,
  ADD COLUMN "atm_agent" TEXT,
  ADD COLUMN "atm_commission_bps" INTEGER,
  ADD COLUMN "deregistered_at" DATE,
  ADD COLUMN "quotes" JSONB;

ALTER TABLE "dilution_instruments"
  ADD COLUMN "registered" BOOLEAN,
  ADD COLUMN "pre_funded" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "exercisable_at" DATE,
  ADD COLUMN "quotes" JSONB;

ALTER TABLE "float_snapshots"
  ADD COLUMN "quotes" JSONB;
