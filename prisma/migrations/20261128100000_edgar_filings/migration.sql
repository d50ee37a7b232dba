-- Each prospectus and registration statement the EDGAR sync read, kept once by
-- accession (the full .txt submission, gzip), and each company's filing index
-- and XBRL facts as last read: `data:edgar reextract` rebuilds the records
-- from these alone when the filing readers change.
CREATE TABLE "edgar_filings" (
    "accession_number" TEXT NOT NULL,
    "cik" TEXT NOT NULL,
    "form" TEXT NOT NULL,
    "filed_at" DATE NOT NULL,
    "bytes" INTEGER NOT NULL,
    "text_gzip" BYTEA NOT NULL,
    "fetched_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "edgar_filings_pkey" PRIMARY KEY ("accession_number")
);

CREATE INDEX "edgar_filings_cik_idx" ON "edgar_filings"("cik");

ALTER TABLE "edgar_companies" ADD COLUMN "resources_gzip" BYTEA;
