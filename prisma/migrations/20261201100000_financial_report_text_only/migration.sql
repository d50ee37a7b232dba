-- A financial report read from a periodic report's text alone (issue 26 item
-- 1): a filer without XBRL facts for the period, or an IFRS filer, still
-- states going-concern doubt in its 10-K, 10-Q or 20-F. The sync records that
-- report for its period with going_concern and its quote; the text gives no
-- cash figure, so cash_cents is NULL (unknown) there, never 0.
ALTER TABLE "financial_reports" ALTER COLUMN "cash_cents" DROP NOT NULL;
