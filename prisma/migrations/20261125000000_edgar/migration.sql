-- Real data from SEC EDGAR (issue 13).
--
-- Evidence: every record can name the filing it came from (accession number,
-- form, filing date, SEC URL). Records without it are imported or sample data.
-- Unknown values: what a filing does not state is NULL (a shelf's registered
-- amount, a takedown's size, float shares without a price, debt, burn, the
-- baby-shelf flag without a public float, Reg SHO status without a list).

-- Companies: SEC's identifiers.
ALTER TABLE "companies" ADD COLUMN "cik" TEXT, ADD COLUMN "sic" TEXT, ADD COLUMN "source_url" TEXT;
CREATE INDEX "companies_cik_idx" ON "companies"("cik");

-- Evidence on every record table.
ALTER TABLE "financial_reports" ADD COLUMN "source_accession" TEXT, ADD COLUMN "source_form" TEXT, ADD COLUMN "source_filed_at" DATE, ADD COLUMN "source_url" TEXT;
ALTER TABLE "registrations" ADD COLUMN "source_accession" TEXT, ADD COLUMN "source_form" TEXT, ADD COLUMN "source_filed_at" DATE, ADD COLUMN "source_url" TEXT;
ALTER TABLE "offerings" ADD COLUMN "source_accession" TEXT, ADD COLUMN "source_form" TEXT, ADD COLUMN "source_filed_at" DATE, ADD COLUMN "source_url" TEXT;
ALTER TABLE "dilution_instruments" ADD COLUMN "source_accession" TEXT, ADD COLUMN "source_form" TEXT, ADD COLUMN "source_filed_at" DATE, ADD COLUMN "source_url" TEXT;
ALTER TABLE "compliance_deficiencies" ADD COLUMN "source_accession" TEXT, ADD COLUMN "source_form" TEXT, ADD COLUMN "source_filed_at" DATE, ADD COLUMN "source_url" TEXT;
ALTER TABLE "float_snapshots" ADD COLUMN "source_accession" TEXT, ADD COLUMN "source_form" TEXT, ADD COLUMN "source_filed_at" DATE, ADD COLUMN "source_url" TEXT;

-- Unknown values.
ALTER TABLE "financial_reports" ALTER COLUMN "quarterly_burn_cents" DROP NOT NULL,
  ALTER COLUMN "debt_cents" DROP NOT NULL, ALTER COLUMN "debt_cents" DROP DEFAULT,
  ALTER COLUMN "reg_sho" DROP NOT NULL, ALTER COLUMN "reg_sho" DROP DEFAULT,
  ADD COLUMN "operating_cash_flow_cents" BIGINT;
ALTER TABLE "registrations" ALTER COLUMN "offering_amount_cents" DROP NOT NULL,
  ALTER COLUMN "over_baby_shelf" DROP NOT NULL, ALTER COLUMN "over_baby_shelf" DROP DEFAULT,
  ADD COLUMN "effective_accession" TEXT, ADD COLUMN "effective_filed_at" DATE, ADD COLUMN "effective_url" TEXT;
ALTER TABLE "offerings" ALTER COLUMN "amount_cents" DROP NOT NULL, ADD COLUMN "file_number" TEXT;
ALTER TABLE "float_snapshots" ALTER COLUMN "float_shares" DROP NOT NULL,
  ADD COLUMN "public_float_cents" BIGINT, ADD COLUMN "public_float_as_of" DATE;

-- Facts EDGAR does not hold, imported by the operator.
CREATE TABLE "daily_prices" (
    "company_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "close_micros" BIGINT NOT NULL,
    CONSTRAINT "daily_prices_pkey" PRIMARY KEY ("company_id", "date"),
    CONSTRAINT "daily_prices_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE TABLE "reg_sho_thresholds" (
    "company_id" UUID NOT NULL,
    "list_date" DATE NOT NULL,
    CONSTRAINT "reg_sho_thresholds_pkey" PRIMARY KEY ("company_id", "list_date"),
    CONSTRAINT "reg_sho_thresholds_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- The days for which a threshold list was imported: a listed company absent
-- from that day's list was not on it; a day without a list is unknown.
CREATE TABLE "reg_sho_list_days" (
    "list_date" DATE NOT NULL,
    CONSTRAINT "reg_sho_list_days_pkey" PRIMARY KEY ("list_date")
);

-- The EDGAR sync's memory: validators for conditional requests per company,
-- and what each filing's documents said (fetched once).
CREATE TABLE "edgar_companies" (
    "cik" TEXT NOT NULL,
    "submissions_etag" TEXT,
    "submissions_last_modified" TEXT,
    "facts_etag" TEXT,
    "facts_last_modified" TEXT,
    "latest_accession" TEXT,
    "partial" BOOLEAN NOT NULL DEFAULT false,
    "synced_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "edgar_companies_pkey" PRIMARY KEY ("cik")
);
CREATE TABLE "edgar_filing_facts" (
    "accession_number" TEXT NOT NULL,
    "cik" TEXT NOT NULL,
    "form" TEXT NOT NULL,
    "facts" JSONB NOT NULL,
    "fetched_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "edgar_filing_facts_pkey" PRIMARY KEY ("accession_number")
);
